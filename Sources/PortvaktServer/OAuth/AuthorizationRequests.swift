import Foundation
import PortvaktDomain
import Hummingbird
import PortvaktCore
import PortvaktHTTP
import PortvaktStorage

/// The app's authorization request as `/oauth/authorize` and the other-device page receive it,
/// checked once for both.
struct AuthorizationRequests: Sendable {
    let flows: LoginFlows
    let clients: AppClients
    let sessions: SessionService

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
    func check(_ httpRequest: Request) async throws -> Checked {
        do {
            let fields: FormFields
            do {
                fields = try FormFields.parse(httpRequest.uri.query ?? "")
            } catch {
                throw AppAuthorizationRequest.PageError(description: error.description)
            }
            if let requestURI = fields["request_uri"] {
                return .request(try await pushed(requestURI, clientID: fields["client_id"]))
            }
            if let continuation = fields["continuation"] {
                return .request(try continued(continuation, fields: fields))
            }
            let request = try AppAuthorizationRequest.parse(fields, clients: clients.all, acceptLanguage: httpRequest.headers[.acceptLanguage])
            switch clients.client(request.clientID)?.senderConstraint {
            case .required?:
                throw AppAuthorizationRequest.RedirectError(
                    redirectURI: request.redirectURI, state: request.state, error: "invalid_request",
                    description: "this client must push its authorization request first (PAR, RFC 9126)", language: request.language
                )
            case .relaxed?:
                try await sessions.auditLegacyUse(request.clientID, skipped: "par")
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
                state: error.state, issuer: clients.address.current
            )
            return .refused(Responses.redirect(to: location, status: .seeOther))
        }
    }

    /// The pushed request, once, for the client that pushed it (RFC 9126 §4).
    private func pushed(_ requestURI: String, clientID: String?) async throws -> AppAuthorizationRequest {
        guard var request = try await flows.takePushed(requestURI, clientID: clientID) else {
            throw AppAuthorizationRequest.PageError(description: "request_uri is unknown, used or older than 60 seconds; start the login again in the app")
        }
        request.continuation = try AuthorizationContinuation.seal(request, flows: flows)
        return request
    }

    /// A link on a page of a pushed request: the sealed request, with the method and language the link chose.
    private func continued(_ text: String, fields: FormFields) throws -> AppAuthorizationRequest {
        guard var request = AuthorizationContinuation.open(text, flows: flows), request.clientID == fields["client_id"] else {
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
}
