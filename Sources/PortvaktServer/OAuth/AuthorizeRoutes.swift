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

    /// A request arrives three ways: pushed (PAR, `request_uri`), as a page's link of a pushed
    /// request (`continuation`), or with its parameters in the query, which a client that must
    /// push its requests may not do.
    /// - Throws: only what the database throws (a 503 page then).
    static func check(_ httpRequest: Request, broker: Broker) async throws -> Checked {
        do {
            let fields: FormFields
            do {
                fields = try FormFields.parse(httpRequest.uri.query ?? "")
            } catch {
                throw AppAuthorizationRequest.PageError(description: error.description)
            }
            if let requestURI = fields["request_uri"] {
                return .request(try await pushed(requestURI, clientID: fields["client_id"], broker: broker))
            }
            if let continuation = fields["continuation"] {
                return .request(try continued(continuation, fields: fields, broker: broker))
            }
            let request = try AppAuthorizationRequest.parse(fields, clients: broker.clients, acceptLanguage: httpRequest.headers[.acceptLanguage])
            switch broker.client(request.clientID)?.senderConstraint {
            case .required?:
                throw AppAuthorizationRequest.RedirectError(
                    redirectURI: request.redirectURI, state: request.state, error: "invalid_request",
                    description: "this client must push its authorization request first (PAR, RFC 9126)", language: request.language
                )
            case .relaxed?:
                try await SessionService(broker: broker).auditLegacyUse(request.clientID, skipped: "par")
            case .optional?, nil:
                break
            }
            return .request(request)
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
        }
    }

    /// The pushed request, once, for the client that pushed it (RFC 9126 §4).
    private static func pushed(_ requestURI: String, clientID: String?, broker: Broker) async throws -> AppAuthorizationRequest {
        guard var request = try await broker.takePushed(requestURI, clientID: clientID) else {
            throw AppAuthorizationRequest.PageError(description: "request_uri is unknown, used or older than 60 seconds; start the login again in the app")
        }
        request.continuation = try AuthorizationContinuation.seal(request, broker: broker)
        return request
    }

    /// A link on a page of a pushed request: the sealed request, with the method and language the link chose.
    private static func continued(_ text: String, fields: FormFields, broker: Broker) throws -> AppAuthorizationRequest {
        guard var request = AuthorizationContinuation.open(text, broker: broker), request.clientID == fields["client_id"] else {
            throw AppAuthorizationRequest.PageError(description: "the login has expired; start it again in the app")
        }
        request.method = nil
        if let hint = fields["idp_hint"] {
            guard let method = IdentityProvider(rawValue: hint) else { throw AppAuthorizationRequest.PageError(description: "idp_hint must be bankid, vipps or password") }
            request.method = method
        }
        if let locales = fields["ui_locales"] { request.language = Language(uiLocales: locales) }
        return request
    }

    private func authorize(_ httpRequest: Request) async throws -> Response {
        let request: AppAuthorizationRequest
        switch try await Self.check(httpRequest, broker: broker) {
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
