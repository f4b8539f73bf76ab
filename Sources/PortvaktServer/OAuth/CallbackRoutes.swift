import Foundation
import Hummingbird
import Logging
import Personnummer
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktProtocol
import PortvaktStorage

/// `GET /oauth/callback/{bankid,vipps}`: the provider sends the browser back here with a code
/// or an error. The broker exchanges the code, verifies the ID token, finds the member, and
/// sends the browser on to the app with Portvakt's own code, or with an error the app can show.
struct CallbackRoutes {
    let flows: LoginFlows
    let completion: LoginCompletion
    let upstreams: UpstreamDirectory
    let identities: ProviderIdentities
    /// How far the provider's clock may be from ours when `auth_time` is checked.
    static let clockSkew: TimeInterval = 60

    func register(on routes: DeclaredRoutes) {
        for provider in [IdentityProvider.bankid, .vipps] {
            routes.get("/oauth/callback/\(provider.rawValue)", .anonymous, surface: .page) { request, context in
                try await callback(request, provider: provider, logger: context.logger)
            }
        }
    }

    private func callback(_ request: Request, provider: IdentityProvider, logger: Logger) async throws -> Response {
        let language = Language.nb
        guard let fields = FormFields(request.uri.query ?? ""), let state = fields["state"] else {
            return BrokerPage.problem(.invalidLoginRequest, reason: "state is missing", language: language)
        }
        // Login CSRF (RFC 6749 §10.12): an answer that reached another browser is not taken, so
        // the browser that started the login can still finish it.
        guard flows.binding.isLoginBound(request, state: state) else {
            logger.notice("A provider's answer arrived in another browser", metadata: ["callback": "\(provider.rawValue)"])
            return BrowserBinding.otherBrowser(request)
        }
        // Taken whatever happens next, so a state is good for one answer only.
        guard let login = try await flows.pendingLogin(handle: state, take: true) else {
            return BrokerPage.problem(.invalidLoginRequest, reason: "this login is unknown, finished or expired", language: language)
        }
        guard login.method == provider, let verifier = login.upstreamVerifier, let nonce = login.upstreamNonce else {
            logger.warning("A provider's answer arrived at another provider's callback", metadata: ["callback": "\(provider.rawValue)"])
            return BrokerPage.problem(.invalidLoginRequest, reason: "the answer came back to the wrong provider's address", language: login.request.language)
        }
        let upstream = await upstreams.provider(provider)

        if let error = fields["error"] {
            let location = OAuthErrorCode(rawValue: error) == .accessDenied
                ? try await completion.fail(login, error: .accessDenied, message: provider.cancelledMessage, reason: "user cancelled")
                : try await completion.fail(login, error: .serverError, message: .loginFailed, reason: "provider error \(error.prefix(40))")
            return Responses.redirect(to: location, status: .seeOther)
        }
        guard let code = fields["code"], let upstream else {
            return Responses.redirect(to: try await completion.fail(login, error: .serverError, message: .loginFailed, reason: "no code"), status: .seeOther)
        }

        do {
            let now = flows.now()
            let (tokens, idToken) = try await upstream.exchange(
                code: code, codeVerifier: verifier, redirectURI: flows.callbackURI(provider), nonce: nonce, now: now
            )
            // RFC 9207: when the provider names itself, it must be the provider this flow went to.
            if let iss = fields["iss"], iss != idToken.iss {
                throw UpstreamError.rejected("iss in the authorization response is another issuer")
            }
            // OIDC Core §3.1.2.1: with max_age, the provider's auth_time must show a login that recent.
            if let maxAge = login.request.maxAge {
                guard let authTime = idToken.authTime, now.timeIntervalSince1970 - authTime <= Double(maxAge) + Self.clockSkew else {
                    throw UpstreamError.rejected("the provider's auth_time is missing or older than max_age")
                }
            }
            let (linkerLogin, provided) = try await identities.identity(provider: provider, upstream: upstream, tokens: tokens, idToken: idToken, now: now)
            let method = LoginCompletion.Method(
                provider: provider, amr: idToken.amr ?? [provider.rawValue], acr: Authentication.upstreamACR(idToken.acr, provider: provider),
                authTime: idToken.authTime.map(Date.init(timeIntervalSince1970:))
            )
            guard let user = try await identities.user(for: linkerLogin, now: now) else {
                // S15: no record holds the number or the phone; the person may claim one by its email.
                guard let handle = try await identities.offerClaim(login, identity: linkerLogin, provided: provided, method: method) else {
                    let location = try await completion.fail(login, error: .accessDenied, message: .notRegistered, reason: "no member record")
                    return Responses.redirect(to: location, status: .seeOther)
                }
                var page = ClaimPage.email(handle: handle, language: login.request.language, brand: await flows.brand(for: login.request, completion))
                page.headers[.setCookie] = identities.browserBinding.claimSetting(for: handle)
                return page
            }
            return try await flows.finish(login, user: user, method: method, personnummer: provided, completion: completion, request: request)
        } catch let error as UpstreamError {
            let location: String
            switch error {
            case .unavailable(let reason), .timedOut(let reason):
                await upstream.forgetMetadata()
                location = try await completion.fail(login, error: .temporarilyUnavailable, message: provider.unavailableMessage, reason: reason)
            case .rejected(let reason):
                location = try await completion.fail(login, error: .serverError, message: .loginFailed, reason: reason)
            }
            return Responses.redirect(to: location, status: .seeOther)
        } catch {
            // The state is spent: the app must still hear how its login ended.
            logger.error("A login could not be completed", metadata: ["provider": "\(provider.rawValue)", "error": "\(error)"])
            let (failure, message): (OAuthErrorCode, UserMessage) = (error as? StoreError)?.isUnavailable == true
                ? (.temporarilyUnavailable, .temporarilyUnavailable) : (.serverError, .loginFailed)
            guard let location = try? await completion.fail(login, error: failure, message: message, reason: "internal error") else {
                throw error
            }
            return Responses.redirect(to: location, status: .seeOther)
        }
    }
}
