import Foundation
import Hummingbird
import PortvaktCore
import PortvaktHTTP
import PortvaktStorage

/// `GET /oauth/authorize`: checks the app's request, then sends the browser to BankID or Vipps,
/// shows the password form, or, without `idp_hint`, the method page.
struct AuthorizeRoutes {
    let broker: Broker

    func register(on router: Router<some RequestContext>) {
        router.get("/oauth/authorize") { request, _ in
            try await authorize(request)
        }
    }

    /// The app's request, or the answer that refuses it: a page when the client or redirect URI
    /// cannot be trusted, otherwise a redirect to the app with the error.
    enum Checked {
        case request(AppAuthorizationRequest)
        case refused(Response)
    }

    static func check(_ httpRequest: Request, broker: Broker) -> Checked {
        do {
            let fields: FormFields
            do {
                fields = try FormFields.parse(httpRequest.uri.query ?? "")
            } catch {
                throw AppAuthorizationRequest.PageError(description: error.description)
            }
            return .request(try AppAuthorizationRequest.parse(fields, clients: broker.clients, acceptLanguage: httpRequest.headers[.acceptLanguage]))
        } catch let error as AppAuthorizationRequest.PageError {
            let language = PortalLanguage.of(httpRequest)
            return .refused(BrokerPage.problem(.invalidLoginRequest, reason: error.description, language: language))
        } catch let error as AppAuthorizationRequest.RedirectError {
            let location = LoginCompletion.redirect(
                to: error.redirectURI,
                [("error", error.error), ("error_description", error.description), ("message_id", UserMessage.invalidLoginRequest.id)],
                state: error.state, issuer: broker.issuer
            )
            return .refused(Responses.redirect(to: location, status: .seeOther))
        } catch {
            return .refused(BrokerPage.problem(.invalidLoginRequest, reason: "the request could not be read", language: .nb))
        }
    }

    private func authorize(_ httpRequest: Request) async throws -> Response {
        let request: AppAuthorizationRequest
        switch Self.check(httpRequest, broker: broker) {
        case .request(let checked): request = checked
        case .refused(let response): return response
        }

        switch request.method {
        case nil:
            return BrokerPage.response(MethodPage.render(request))
        case .password:
            let handle = try await broker.begin(PendingLogin(request: request, method: .password))
            return BrokerPage.response(PasswordPage.render(request, handle: handle))
        case .bankid, .vipps:
            return try await startUpstream(request, provider: request.method!)
        }
    }

    private func startUpstream(_ request: AppAuthorizationRequest, provider: IdentityProvider) async throws -> Response {
        let verifier = PKCE.makeVerifier()
        let nonce = randomToken()
        let login = PendingLogin(request: request, method: provider, upstreamVerifier: verifier, upstreamNonce: nonce)
        let completion = LoginCompletion(broker: broker)
        guard let upstream = await broker.upstreams.provider(provider) else {
            let location = try await completion.fail(login, error: "temporarily_unavailable", message: provider.unavailableMessage, reason: "not configured")
            return Responses.redirect(to: location, status: .seeOther)
        }
        let state = try await broker.begin(login)
        do {
            let url = try await upstream.authorizationURL(
                state: state, nonce: nonce, codeVerifier: verifier, redirectURI: broker.callbackURI(provider), language: request.language,
                loginHint: request.loginHint, maxAge: request.maxAge
            )
            return Responses.redirect(to: url, status: .seeOther)
        } catch {
            _ = try await broker.pendingLogin(handle: state, take: true)
            let location = try await completion.fail(login, error: "temporarily_unavailable", message: provider.unavailableMessage, reason: error.description)
            return Responses.redirect(to: location, status: .seeOther)
        }
    }
}

extension IdentityProvider {
    var unavailableMessage: UserMessage { self == .vipps ? .vippsUnavailable : .bankIDUnavailable }
    var cancelledMessage: UserMessage { self == .vipps ? .vippsCancelled : .bankIDCancelled }
}
