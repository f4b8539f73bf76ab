import Foundation
import PortvaktDomain
import Hummingbird
import PortvaktCore
import PortvaktHTTP
import PortvaktModels
import PortvaktProtocol
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
    /// - Parameter startingLogin: the page starts a login whatever the link's `idp_hint` (BankID
    ///   on another device), so a page link it was reached by is used up.
    /// - Throws: only what the database throws (a 503 page then).
    func check(_ httpRequest: Request, startingLogin: Bool = false) async throws -> Checked {
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
                return .request(try await continued(continuation, fields: fields, startingLogin: startingLogin))
            }
            let request = try AppAuthorizationRequest.parse(fields, clients: clients.all, acceptLanguage: httpRequest.headers[.acceptLanguage])
            if let client = clients.client(request.clientID), client.requiresPushedRequests {
                guard client.legacy else {
                    throw AppAuthorizationRequest.RedirectError(
                        redirectURI: request.redirectURI, state: request.state, error: .invalidRequest,
                        description: "this client must push its authorization request first (PAR, RFC 9126)", language: request.language
                    )
                }
                try await sessions.auditLegacyUse(request.clientID, skipped: "par")
            }
            return .request(request)
        } catch let error as AppAuthorizationRequest.PageError {
            let language = PortalLanguage.of(httpRequest)
            return .refused(BrokerPage.problem(.invalidLoginRequest, reason: error.description, language: language))
        } catch let error as AppAuthorizationRequest.RedirectError {
            let location = LoginCompletion.redirect(
                to: error.redirectURI,
                [("error", error.error.rawValue), ("error_description", error.description), ("message_id", UserMessage.invalidLoginRequest.id)],
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
        request.continuation = try await flows.continuation(for: request, expiresAt: flows.now().addingTimeInterval(flows.lifetimes.loginFlow))
        return request
    }

    /// A link on a page of a pushed request, with the method and language the link chose. A link
    /// that starts a login (a method, or the other-device page) is used up, and the next page's
    /// links get a handle of their own; the method page itself (a language, "back to the methods")
    /// keeps it.
    private func continued(_ handle: String, fields: FormFields, startingLogin: Bool) async throws -> AppAuthorizationRequest {
        var method: IdentityProvider?
        if let hint = fields["idp_hint"] {
            guard let chosen = IdentityProvider(rawValue: hint) else { throw AppAuthorizationRequest.PageError(description: "idp_hint must be bankid, vipps or password") }
            method = chosen
        }
        let take = startingLogin || method != nil
        guard let continued = try await flows.continued(handle, clientID: fields["client_id"], take: take) else {
            throw AppAuthorizationRequest.PageError(description: "this link has expired or was already used; start the login again in the app")
        }
        var request = continued.request
        request.method = method
        if let locales = fields["ui_locales"] { request.language = Language(uiLocales: locales) }
        request.continuation = take ? try await flows.continuation(for: request, expiresAt: continued.expiresAt) : handle
        return request
    }
}
