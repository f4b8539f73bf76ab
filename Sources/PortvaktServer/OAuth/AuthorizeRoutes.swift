import PortvaktDomain
import Foundation
import Hummingbird
import PortvaktCore
import PortvaktHTTP
import PortvaktModels
import PortvaktProtocol
import PortvaktStorage

/// `GET /oauth/authorize`: checks the app's request, then sends the browser to BankID or Vipps,
/// shows the password form, or, without `idp_hint`, the method page.
struct AuthorizeRoutes {
    let requests: AuthorizationRequests
    let flows: LoginFlows
    let upstreams: UpstreamDirectory
    let completion: LoginCompletion

    func register(on routes: DeclaredRoutes) {
        routes.get("/oauth/authorize", .anonymous, surface: .page) { request, _ in
            try await authorize(request)
        }
    }

    private func authorize(_ httpRequest: Request) async throws -> Response {
        let request: AppAuthorizationRequest
        switch try await requests.check(httpRequest) {
        case .request(let checked): request = checked
        case .refused(let response): return response
        }
        if completion.policy(of: request.clientID).singleSignOn, let answer = try await fromSignIn(request, httpRequest) {
            return answer
        }
        if request.prompts.contains("none") { return refuse(request, .loginRequired, "the person is not signed in at Portvakt in this browser") }

        if let provider = request.method, provider == .bankid || provider == .vipps, flows.methods.offers(provider) {
            return try await startUpstream(request, provider: provider)
        }
        // Every other answer is a page, with the brand of the client's organisation.
        let brand = await flows.brand(for: request, completion)
        switch request.method {
        case nil:
            return BrokerPage.response(MethodPage.render(request, methods: flows.methods, passkeys: flows.passkeysAvailable, brand: brand))
        case .password:
            let handle = try await flows.begin(PendingLogin(request: request, method: .password))
            return BrokerPage.response(PasswordPage.render(request, handle: handle, passkeys: flows.passkeysAvailable, brand: brand), script: flows.passkeysAvailable)
        case .passkey where flows.passkeysAvailable:
            let handle = try await flows.begin(PendingLogin(request: request, method: .passkey))
            return BrokerPage.response(PasskeyPage.render(request, handle: handle, brand: brand), script: true)
        case .passkey:
            return BrokerPage.response(MethodPage.render(request, methods: flows.methods, passkeys: false, brand: brand))
        case .bankid, .vipps:
            // A hint for a method this deployment does not have: the ways it does have.
            return BrokerPage.response(MethodPage.render(request, methods: flows.methods, passkeys: flows.passkeysAvailable, brand: brand))
        }
    }

    /// Single sign-on (OIDC Core §3.1.2.3): the browser's sign-in answers when it meets the
    /// request (no `prompt=login`, younger than `max_age`, an `acr` of `acr_values`, the method of
    /// `idp_hint`) and the person has let a third party have what it asks; otherwise `prompt=none`
    /// gets its error and any other request goes on to a login (or the consent page).
    private func fromSignIn(_ request: AppAuthorizationRequest, _ httpRequest: Request) async throws -> Response? {
        let silent = request.prompts.contains("none")
        guard let browser = try await flows.browserSession(of: httpRequest), let user = try await flows.store.user(id: browser.userId) else {
            return silent ? refuse(request, .loginRequired, "the person is not signed in at Portvakt in this browser") : nil
        }
        let age = flows.now().timeIntervalSince(Date(millisecondsSince1970: browser.authTime))
        let acceptable = (request.acrValues?.split(separator: " ").map(String.init)).map { $0.isEmpty || $0.contains(browser.acr) } ?? true
        guard request.maxAge.map({ age <= TimeInterval($0) }) ?? true, acceptable, request.method.map({ $0.rawValue == browser.provider }) ?? true else {
            return silent ? refuse(request, .loginRequired, "the browser's sign-in is older, or of another method or level, than the request asks") : nil
        }
        // prompt=none answers the client, never with a page (the members-only page is one).
        if silent, try await completion.admission(of: user, to: request.clientID) != .admitted {
            return refuse(request, .accessDenied, "this person may not sign in to this client")
        }
        let policy = completion.policy(of: request.clientID)
        let consented = policy.consentCovers(try await flows.store.consent(userID: user.id, clientID: request.clientID), scope: request.scope)
        if !consented || (request.prompts.contains("consent") && !policy.firstParty) {
            if silent { return refuse(request, .consentRequired, "the person has not let this client have what it asks for") }
            await completion.forgetContinuation(of: request)
            let handle = try await flows.awaitConsent(request, signIn: browser.id)
            return Responses.redirect(to: ConsentRoutes.url(issuer: flows.address.current, clientID: request.clientID, handle: handle, language: request.language), status: .seeOther)
        }
        return Responses.redirect(to: try await completion.fromBrowserSession(request, browser, user: user), status: .seeOther)
    }

    /// The client's redirect with an OIDC error and no page (`prompt=none`).
    private func refuse(_ request: AppAuthorizationRequest, _ error: OAuthErrorCode, _ description: String) -> Response {
        Responses.redirect(to: completion.appRedirect(request, [("error", error.rawValue), ("error_description", description)]), status: .seeOther)
    }

    private func startUpstream(_ request: AppAuthorizationRequest, provider: IdentityProvider) async throws -> Response {
        let verifier = PKCE.makeVerifier()
        let nonce = randomToken()
        let login = PendingLogin(request: request, method: provider, upstreamVerifier: verifier, upstreamNonce: nonce)
        guard let upstream = await upstreams.provider(provider) else {
            let location = try await completion.fail(login, error: .temporarilyUnavailable, message: provider.unavailableMessage, reason: "not configured")
            return Responses.redirect(to: location, status: .seeOther)
        }
        let state = try await flows.begin(login)
        do {
            let url = try await upstream.authorizationURL(
                state: state, nonce: nonce, codeVerifier: verifier, redirectURI: flows.callbackURI(provider), language: request.language,
                loginHint: request.loginHint, maxAge: request.maxAge
            )
            var response = Responses.redirect(to: url, status: .seeOther)
            response.headers[.setCookie] = flows.binding.loginSetting(for: state, lifetime: flows.lifetimes.loginFlow)
            return response
        } catch {
            _ = try await flows.pendingLogin(handle: state, take: true)
            let location = try await completion.fail(login, error: .temporarilyUnavailable, message: provider.unavailableMessage, reason: error.description)
            return Responses.redirect(to: location, status: .seeOther)
        }
    }
}

extension IdentityProvider {
    var unavailableMessage: UserMessage { self == .vipps ? .vippsUnavailable : .bankIDUnavailable }
    var cancelledMessage: UserMessage { self == .vipps ? .vippsCancelled : .bankIDCancelled }
}
