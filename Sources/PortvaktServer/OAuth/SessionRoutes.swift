import Foundation
import HTTPTypes
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktProtocol

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
        let granted = ClaimScopes(caller.claims.scope)
        return try Responses.json(Userinfo(
            sub: user.id, name: granted.name ? user.displayName : nil, email: granted.email ? user.email : nil,
            org: granted.organisations ? caller.claims.org ?? [] : nil
        ))
    }

    /// OIDC RP-Initiated Logout 1.0 §2: ends the session named by `id_token_hint` (an ID token we
    /// issued, expired or not), then returns to a `post_logout_redirect_uri` registered for the
    /// client (`client_id`, or the hint's audience; both must agree), with `state`, or shows a page
    /// that says what happened. Anonymous: the hint is what names the session, and a cross-site
    /// request can do no more than the hint's holder could (end that sign-in).
    private func endSession(_ query: String?, _ request: Request) async throws -> Response {
        guard let fields = FormFields(query ?? "") else {
            return refused("the request is malformed", language: PortalLanguage.of(request))
        }
        let language = fields["ui_locales"].map { Language(uiLocales: $0) } ?? PortalLanguage.of(request)
        // Everything is checked before anything ends: a refused sign-out ends nothing, as its page says.
        var client = fields["client_id"].flatMap(clients.client)
        if fields["client_id"] != nil, client == nil {
            return refused("client_id is not a registered client", language: language)
        }
        var named: Session?
        // The hint's sign-in at Portvakt, whatever its session's state (a client may revoke its
        // tokens before it sends the browser here, as mod_auth_openidc does).
        var hintedSignIn: String?
        if let hint = fields["id_token_hint"] {
            guard let (claims, session) = try await sessions.named(byIDToken: hint) else {
                return refused("id_token_hint is not an ID token from this server", language: language)
            }
            if let client, client.id != claims.aud {
                return refused("id_token_hint was issued to another client than client_id", language: language)
            }
            client = clients.client(claims.aud)
            hintedSignIn = session?.browserSessionId
            named = session.flatMap { $0.revokedAt == nil ? $0 : nil }
        }
        var returnTo: String?
        if let uri = fields["post_logout_redirect_uri"] {
            guard let client else {
                return refused("post_logout_redirect_uri needs id_token_hint or client_id to say whose it is", language: language)
            }
            guard client.allowsPostLogoutRedirect(uri) else {
                return refused("post_logout_redirect_uri is not registered for this client", language: language)
            }
            returnTo = fields["state"].map { URLComponents.appending([("state", $0)], to: uri) } ?? uri
        }
        let cookie = SingleSignOnCookie(address: clients.address)
        let reference = cookie.reference(in: request)
        let here: BrowserSession? = if let reference { try await sessions.browserSession(idHash: SingleSignOnCookie.hash(reference)) } else { nil }
        if let session = named {
            // An ID token is no proof of the key a session is bound to: only a DPoP proof by
            // that key ends it here (review II, item 9); the app signs out with /oauth/revoke.
            if let bound = session.dpopJkt {
                let key = try? await dpop.proofKey(request, at: .authorizationServer)
                guard key == bound else {
                    return refused("this sign-in is bound to the app's key: sign out in the app", language: language)
                }
            }
            if session.browserSessionId == nil || session.browserSessionId != here?.id {
                try await sessions.end(session, reason: "logout", now: sessions.now())
            }
        }
        // The browser's own sign-in ends, and with it every client session it answered (each told
        // over the back channel when it asked), when the hint's session rests on it, or when the
        // person confirmed it on the page below (its token bound to the cookie): an ID token from
        // elsewhere ends its own session only, and a link or a form from anywhere signs nobody out.
        if let signIn = here, let reference {
            let confirmed = request.method == .post && fields["confirm"] == "yes" && constantTimeEqual(fields["token"] ?? "", cookie.signOutToken(reference))
            guard hintedSignIn == signIn.id || confirmed else {
                var carried = [("token", cookie.signOutToken(reference)), ("ui_locales", language.rawValue)]
                for name in ["client_id", "post_logout_redirect_uri", "state"] { if let value = fields[name] { carried.append((name, value)) } }
                let values = SignOutView(
                    heading: BrokerText.signOutQuestion.text(language), message: BrokerText.signOutExplained.text(language),
                    fields: carried.map { SignOutView.Field(name: $0.0, value: $0.1) }
                )
                return BrokerPage.response(BrokerPage.render("broker_sign_out", language: language, switchLanguage: nil, values: values))
            }
            try await sessions.endBrowserSignIn(id: signIn.id, userID: signIn.userId, reason: "logout")
        }
        var response = returnTo.map { Responses.redirect(to: $0, status: .seeOther) }
            ?? BrokerPage.response(BrokerPage.render("broker_logged_out", language: language, switchLanguage: nil, values: EmptyValues()))
        if cookie.reference(in: request) != nil { response.headers.append(HTTPField(name: .setCookie, value: cookie.clearing)) }
        return response
    }

    /// What `broker_sign_out` reads: the question before a browser signs out at Portvakt.
    struct SignOutView: PageValues {
        let heading: String
        let message: String
        /// What the sign-out was asked with, carried through the form, and its token.
        let fields: [Field]

        struct Field: PageValues {
            let name: String
            let value: String
        }
    }

    /// A sign-out request Portvakt cannot act on: the page says so, in the sign-out's own words.
    private func refused(_ reason: String, language: Language) -> Response {
        let values = BrokerNoticeView(heading: BrokerText.notSignedOut.text(language), message: BrokerText.signOutRefused.text(language), reason: reason)
        return BrokerPage.response(BrokerPage.render("broker_notice", language: language, switchLanguage: nil, values: values), status: .badRequest)
    }

    /// The claims of the token's scopes (``ClaimScopes``); what is nil is left out.
    private struct Userinfo: Encodable {
        let sub: String
        let name: String?
        let email: String?
        let org: [OrganisationClaim]?
    }
}
