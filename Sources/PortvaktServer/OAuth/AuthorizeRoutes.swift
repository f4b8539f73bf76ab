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

        switch request.method {
        case nil:
            return BrokerPage.response(MethodPage.render(request, passkeys: flows.passkeysAvailable))
        case .password:
            let handle = try await flows.begin(PendingLogin(request: request, method: .password))
            return BrokerPage.response(PasswordPage.render(request, handle: handle, passkeys: flows.passkeysAvailable), script: flows.passkeysAvailable)
        case .passkey where flows.passkeysAvailable:
            let handle = try await flows.begin(PendingLogin(request: request, method: .passkey))
            return BrokerPage.response(PasskeyPage.render(request, handle: handle), script: true)
        case .passkey:
            return BrokerPage.response(MethodPage.render(request, passkeys: false))
        case .bankid, .vipps:
            return try await startUpstream(request, provider: request.method!)
        }
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
