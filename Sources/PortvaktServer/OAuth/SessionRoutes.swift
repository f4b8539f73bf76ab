import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP

/// `GET /oauth/userinfo` (OIDC Core §5.3) and `/oauth/end-session` (OIDC RP-Initiated Logout).
struct SessionRoutes {
    let profile: Profile
    let clients: AppClients
    let dpop: DPoPCheck
    let sessions: SessionService

    func register(on routes: DeclaredRoutes) {
        routes.get("/oauth/userinfo", RoutePolicy(caller: .member, anyRelyingParty: true), surface: .json) { _, context in
            try await userinfo(try context.caller())
        }
        routes.get("/oauth/end-session", .anonymous, surface: .page) { request, _ in
            try await endSession(request.uri.query, request)
        }
        routes.post("/oauth/end-session", .anonymous, surface: .page) { request, _ in
            let buffer = try await request.body.collect(upTo: 64 * 1024)
            return try await endSession(String(buffer: buffer), request)
        }
    }

    private func userinfo(_ caller: APICaller) async throws -> Response {
        guard let user = try await profile.user(of: caller.actor) else { throw OAuthFailure.sessionExpired }
        return try Responses.json(Userinfo(sub: user.id, name: user.displayName, email: user.email, org: caller.claims.org))
    }

    /// Ends the session named by `id_token_hint` (an ID token we issued, expired or not), then
    /// returns to a registered `post_logout_redirect_uri` or shows a page.
    private func endSession(_ query: String?, _ request: Request) async throws -> Response {
        guard let fields = FormFields(query ?? "") else {
            return BrokerPage.problem(.invalidLoginRequest, reason: "the request is malformed", language: .nb)
        }
        let language = Language(uiLocales: fields["ui_locales"])
        var client: AppClient?
        if let hint = fields["id_token_hint"] {
            guard let (claims, session) = try await sessions.named(byIDToken: hint) else {
                return BrokerPage.problem(.invalidLoginRequest, reason: "id_token_hint is not a token from this server", language: language)
            }
            client = clients.client(claims.aud)
            if let session, session.revokedAt == nil {
                // An ID token is no proof of the key a session is bound to: only a DPoP proof by
                // that key ends it here (review II, item 9); the app signs out with /oauth/revoke.
                if let bound = session.dpopJkt {
                    let key = try? await dpop.proofKey(request, at: .authorizationServer)
                    guard key == bound else {
                        return BrokerPage.problem(.invalidLoginRequest, reason: "this sign-in is bound to the app's key: sign out in the app", language: language)
                    }
                }
                try await sessions.end(session, reason: "logout", now: sessions.now())
            }
        }
        if let uri = fields["post_logout_redirect_uri"] {
            guard let client, client.postLogoutRedirectURIs.contains(uri) else {
                return BrokerPage.problem(.invalidLoginRequest, reason: "post_logout_redirect_uri is not registered", language: language)
            }
            var query: [(String, String)] = []
            if let state = fields["state"] { query.append(("state", state)) }
            return Responses.redirect(to: query.isEmpty ? uri : URLComponents.appending(query, to: uri), status: .seeOther)
        }
        return BrokerPage.response(BrokerPage.render("broker_logged_out", language: language, switchLanguageURL: nil, values: EmptyValues()))
    }

    private struct Userinfo: Encodable {
        let sub: String
        let name: String
        let email: String?
        let org: [OrganisationClaim]
    }
}
