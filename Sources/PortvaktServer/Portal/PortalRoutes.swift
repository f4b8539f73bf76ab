import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktProtocol
import PortvaktSandbox
import PortvaktStorage

/// The web portal: the start page, sign-in through Portvakt's own `/oauth/authorize` as the
/// client ``PortalClient``, "My account", sign-out, and the language switch.
struct PortalRoutes {
    let portalSessions: PortalSessions
    let account: AccountService
    let sandboxEnabled: Bool
    /// The ways in that are configured; the start page offers only them.
    let methods: OfferedMethods
    let pages = PortalPage.shared

    static let idleLifetime: TimeInterval = 30 * 60
    static let absoluteLifetime: TimeInterval = 12 * 3600
    static let signInLifetime: TimeInterval = 600

    var cookie: PortalSessionCookie { portalSessions.cookie }
    var callbackURI: String { portalSessions.callbackURI }

    func register(on routes: DeclaredRoutes) {
        PortalStylesheet.asset.register(on: routes)
        PasskeyScript.asset.register(on: routes)
        routes.get("/", .anonymous, surface: .page) { request, _ in try await start(request) }
        routes.get("/language", .anonymous, surface: .page) { request, _ in switchLanguage(request) }
        routes.get("/portal/login", .anonymous, surface: .page) { request, _ in try await signIn(request) }
        routes.get(RouterPath(PortalClient.callbackPath), .anonymous, surface: .page) { request, _ in try await callback(request) }
        routes.post("/portal/logout", .portalMember, surface: .page) { request, _ in
            try await withForm(request) { signedIn, _ in try await signOut(request, signedIn) }
        }
        routes.get("/account", .portalMember, surface: .page) { request, _ in
            guard let signedIn = try await signedIn(request) else { return notSignedIn(request) }
            return try await AccountView(account: account, signedIn: signedIn).response(request, pages: pages, frame: frame(request, signedIn))
        }
        routes.get("/account/data", .portalMember, surface: .page) { request, _ in
            guard let signedIn = try await signedIn(request),
                  let data = try await account.exportData(userID: signedIn.portal.userId, sessionID: signedIn.portal.sessionId)
            else { return notSignedIn(request) }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/json; charset=utf-8", .contentDisposition: #"attachment; filename="portvakt-my-data.json""#,
                    .cacheControl: "no-store", .init("X-Content-Type-Options")!: "nosniff",
                ],
                body: .init(byteBuffer: ByteBuffer(data: data))
            )
        }
        routes.post("/account/devices/:id/remove", .portalMember, surface: .page) { request, context in
            try await withForm(request) { signedIn, _ in
                try await actions(request, signedIn).removeDevice(context.parameters.get("id") ?? "")
            }
        }
        routes.post("/account/sessions/:id/end", .portalMember, surface: .page) { request, context in
            try await withForm(request) { signedIn, _ in
                try await actions(request, signedIn).endSession(context.parameters.get("id") ?? "")
            }
        }
        routes.post("/account/applications/:client/withdraw", .portalMember, surface: .page) { request, context in
            try await withForm(request) { signedIn, _ in
                try await actions(request, signedIn).withdrawConsent(context.parameters.get("client") ?? "")
            }
        }
        routes.post("/account/sessions/end-others", .portalMember, surface: .page) { request, _ in
            try await withForm(request) { signedIn, _ in try await actions(request, signedIn).endOthers() }
        }
        registerPasskeyRoutes(on: routes)
    }

    func actions(_ request: Request, _ signedIn: SignedIn) -> AccountActions {
        let frame = frame(request, signedIn)
        return AccountActions(account: account, signedIn: signedIn) { [pages] in
            PortalRoutes.problem(.notFound, heading: .notFoundTitle, frame: frame, status: .notFound, retry: false, pages: pages, back: "/account")
        }
    }

    // MARK: - Pages

    private func start(_ request: Request) async throws -> Response {
        let signedIn = try await signedIn(request)
        var frame = frame(request, signedIn)
        if let reason = request.uri.queryParameters.get("signed_out") {
            frame.status = (reason == "passkey_removed" ? PortalText.signedOutPasskeyRemoved : .signedOut).text(frame.language)
        }
        let values = StartView(
            sandbox: sandboxEnabled, bankid: methods.bankID, vipps: methods.vipps, passkeys: account.passkeys.available,
            people: sandboxEnabled ? TryItPeople.all(frame.language) : nil
        )
        return pages.response("start", frame: frame, values: values)
    }

    private func switchLanguage(_ request: Request) -> Response {
        let language = Language(rawValue: request.uri.queryParameters.get("to") ?? "") ?? PortalLanguage.of(request)
        return PortalPage.redirect(to: Self.localPath(request.uri.queryParameters.get("back")) ?? "/", cookies: [cookie.languageSetting(language)])
    }

    // MARK: - Signing in

    /// A sign-in payload kept (sealed) until the callback: the PKCE verifier and where to go after.
    private struct SignIn: Codable {
        let verifier: String
        let back: String
        /// A signed-in administrator confirming who they are with BankID or Vipps now.
        var stepUp: Bool?
        /// The value of the sign-in cookie set in the browser that started it.
        var binder: String?
    }

    private func signIn(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let language = PortalLanguage.of(request)
        let state = randomToken()
        let verifier = PKCE.makeVerifier()
        let stepUp = query.get("step_up") == "1"
        let binder = randomToken()
        let payload = try JSONEncoder().encode(SignIn(verifier: verifier, back: Self.localPath(query.get("back")) ?? "/account", stepUp: stepUp, binder: binder))
        try await portalSessions.beginSignIn(state: state, payload: payload, lifetime: Self.signInLifetime)
        var fields = [
            ("client_id", PortalClient.id), ("redirect_uri", callbackURI), ("response_type", "code"), ("scope", "openid"),
            ("code_challenge", PKCE.challenge(for: verifier)), ("code_challenge_method", "S256"), ("state", state),
            ("nonce", randomToken(bytes: 16)), ("ui_locales", language.rawValue),
        ]
        var method = query.get("method").flatMap(IdentityProvider.init(rawValue:))
        if stepUp {
            // RFC 9470 style: a new BankID or Vipps authentication, whatever session the provider has.
            if method == .password || method == nil { method = .bankid }
            fields += [("prompt", "login"), ("max_age", "0")]
        }
        if let method { fields.append(("idp_hint", method.rawValue)) }
        if sandboxEnabled, let person = try await sandboxPerson(request, asked: query.get("person"), stepUp: stepUp) { fields.append(("login_hint", person.id)) }
        return PortalPage.redirect(
            to: URLComponents.appending(fields, to: "/oauth/authorize"), cookies: [cookie.signInSetting(binder, maxAge: Int(Self.signInLifetime))]
        )
    }

    /// In the sandbox, the test person to preselect: the one asked for, or for a step-up the person signed in.
    private func sandboxPerson(_ request: Request, asked: String?, stepUp: Bool) async throws -> TestUser? {
        if let person = asked.flatMap(TestUsers.user(id:)) { return person }
        guard stepUp, let signedIn = try await signedIn(request), let email = try await account.user(id: signedIn.portal.userId)?.email else { return nil }
        return TestUsers.all.first { $0.email == email }
    }

    private func callback(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let language = PortalLanguage.of(request)
        let frame = PortalPage.Frame(language: language, path: "/", csrf: nil)
        guard let state = query.get("state"), let opened = try await portalSessions.takeSignIn(state: state),
              let signIn = try? JSONDecoder().decode(SignIn.self, from: opened)
        else {
            return problem(.expiredSignIn, heading: .errorTitle, frame: frame, status: .badRequest, retry: true)
        }
        // Only the browser that started this sign-in may finish it (review II, item 6).
        guard let binder = signIn.binder, let presented = cookie.signInBinder(in: request), constantTimeEqual(binder, presented) else {
            portalSessions.logger.notice("Portal sign-in refused", metadata: ["reason": "state from another browser"])
            return problem(.signInFailed, heading: .errorTitle, frame: frame, status: .badRequest, retry: true)
        }
        guard query.get("iss") == portalSessions.address.current else {
            return problem(.signInFailed, heading: .errorTitle, frame: frame, status: .badRequest, retry: true)
        }
        if let error = query.get("error") {
            // A disabled account is told so plainly, as in the app (issue 45 item 5); signing in again will not help.
            if query.get("message_id") == UserMessage.accountDisabled.id {
                return pages.response("problem", frame: frame, values: NoticeView(
                    heading: PortalText.errorTitle.text(language), message: UserMessage.accountDisabled.text(language), action: nil
                ), status: .forbidden)
            }
            let errorCode = OAuthErrorCode(rawValue: error)
            let message: PortalText = errorCode == .accessDenied ? .signInCancelled : errorCode == .temporarilyUnavailable ? .unavailable : .signInFailed
            return problem(message, heading: .errorTitle, frame: frame, status: errorCode == .temporarilyUnavailable ? .serviceUnavailable : .badRequest, retry: true)
        }
        guard let code = query.get("code") else {
            return problem(.signInFailed, heading: .errorTitle, frame: frame, status: .badRequest, retry: true)
        }
        let session: Session
        do {
            session = try await portalSessions.sessions.redeemSession(
                code: code, clientID: PortalClient.id, redirectURI: callbackURI, verifier: signIn.verifier
            ).session
        } catch is GrantRefusal {
            return problem(.signInFailed, heading: .errorTitle, frame: frame, status: .badRequest, retry: true)
        }
        if signIn.stepUp == true { return try await finishStepUp(request, session: session, back: signIn.back, frame: frame) }
        // A browser signed in already (as anyone) ends that portal session: one per browser.
        if let earlier = try await signedIn(request) { try await end(earlier, reason: "portal_signed_in_again") }
        return try await start(session, back: signIn.back)
    }

    /// A new portal session on `session` behind a new cookie (the sign-in cookie goes).
    private func start(_ session: Session, back: String) async throws -> Response {
        let reference = try await portalSessions.open(on: session, idle: Self.idleLifetime, absolute: Self.absoluteLifetime)
        // The session cookie last: a client that keeps one Set-Cookie per response keeps that one.
        return PortalPage.redirect(to: back, cookies: [cookie.signInSetting("", maxAge: 0), cookie.setting(reference, maxAge: Int(Self.absoluteLifetime))])
    }

    /// Ends a browser's portal session and the Portvakt session it rests on.
    private func end(_ signedIn: SignedIn, reason: String, signingBrowserOut: Bool = false) async throws {
        try await portalSessions.close(signedIn, reason: reason, signingBrowserOut: signingBrowserOut)
    }

    /// The step-up's login must be the same person's, by BankID, Vipps or a device-bound passkey, just now;
    /// the browser's portal session then rests on it, and the session it rested on ends.
    private func finishStepUp(_ request: Request, session: Session, back: String, frame: PortalPage.Frame) async throws -> Response {
        let service = portalSessions.sessions
        let now = service.now()
        /// Another person's login in the middle of a step-up signs this browser in nowhere: its
        /// sign-in at Portvakt ends too.
        func refuse(_ response: Response) async throws -> Response {
            if let signIn = session.browserSessionId {
                try await service.endBrowserSignIn(id: signIn, userID: session.userId, reason: "portal_step_up_refused")
            } else {
                try await service.end(session, reason: "portal_step_up_refused", now: now)
            }
            var response = response
            if session.browserSessionId != nil {
                response.headers.append(HTTPField(name: .setCookie, value: SingleSignOnCookie(address: portalSessions.address).clearing))
            }
            return response
        }
        // No portal session left (another person's login in this browser ended it): that login
        // signs this browser in nowhere.
        guard let current = try await signedIn(request) else {
            return try await refuse(notSignedIn(request))
        }
        // BankID or Vipps, or a device-bound passkey (S18.3); which action each opens is the policy's word.
        let fresh = DeviceTrust.isFreshElectronicIDLogin(session, maxAge: AdminRequest.stepUpMaxAge, at: now)
            || Authentication.isFreshPasskeyLogin(session, maxAge: AdminRequest.stepUpMaxAge, at: now)
        guard session.userId == current.portal.userId, fresh else {
            let message: PortalText = session.userId != current.portal.userId ? .stepUpOtherPerson
                : Self.isSyncedPasskey(session) ? .stepUpPasskeySynced : .stepUpNotFresh
            // The same person's sign-in stays (it answers the services it signed in); another person's goes.
            guard session.userId != current.portal.userId else {
                try await service.end(session, reason: "portal_step_up_refused", now: now)
                return problem(message, heading: .errorTitle, frame: frame, status: .forbidden, retry: false)
            }
            return try await refuse(problem(message, heading: .errorTitle, frame: frame, status: .forbidden, retry: false))
        }
        // The cookie is renewed with the session it rests on (review II, item 9).
        try await end(current, reason: "portal_step_up")
        return try await start(session, back: back)
    }

    /// A sign-in with a passkey that may be synced to other devices (`amr` `swk`): it signs in,
    /// and confirms nothing (issue 44 item 4).
    private static func isSyncedPasskey(_ session: Session) -> Bool {
        [Authentication.passkeyACR, Authentication.passkeyUntrustedACR].contains(session.acr) && session.amr.split(separator: " ").contains("swk")
    }

    private func signOut(_ request: Request, _ signedIn: SignedIn) async throws -> Response {
        try await end(signedIn, reason: "portal_sign_out", signingBrowserOut: true)
        return PortalPage.redirect(to: "/?signed_out=1", cookies: [SingleSignOnCookie(address: portalSessions.address).clearing, cookie.clearing])
    }

    // MARK: - Sessions and forms

    /// A browser signed in to the portal.
    struct SignedIn: Sendable {
        let reference: String
        let portal: PortalSession
        let csrf: String
    }

    func signedIn(_ request: Request) async throws -> SignedIn? {
        let cookie = self.cookie
        guard let reference = cookie.reference(in: request), reference.utf8.count <= 128,
              let portal = try await portalSessions.touch(reference: reference, idle: Self.idleLifetime)
        else { return nil }
        return SignedIn(reference: reference, portal: portal, csrf: cookie.csrfToken(for: reference))
    }

    /// A state-changing form: only from a signed-in browser, from this site, with its CSRF token.
    func withForm(_ request: Request, _ action: (SignedIn, FormFields) async throws -> Response) async throws -> Response {
        guard let signedIn = try await signedIn(request) else { return notSignedIn(request) }
        let fields = (try? await request.formFields()) ?? FormFields("")!
        guard cookie.acceptsForm(request, token: fields["csrf"], reference: signedIn.reference) else {
            return problem(.formExpired, heading: .errorTitle, frame: frame(request, signedIn), status: .forbidden, retry: false)
        }
        return try await action(signedIn, fields)
    }

    /// The frame of a page; the language switch of a form's answer leads to My account, which a GET can show.
    func frame(_ request: Request, _ signedIn: SignedIn?) -> PortalPage.Frame {
        PortalPage.Frame(language: PortalLanguage.of(request), path: request.method == .get ? request.uri.description : "/account", csrf: signedIn?.csrf)
    }

    func notSignedIn(_ request: Request) -> Response {
        let back = request.method == .get ? request.uri.path : "/account"
        let frame = PortalPage.Frame(language: PortalLanguage.of(request), path: back, csrf: nil)
        return pages.response("problem", frame: frame, values: NoticeView(
            heading: PortalText.notSignedInTitle.text(frame.language), message: PortalText.notSignedIn.text(frame.language),
            action: NoticeView.Action(href: "/portal/login?back=\(FormFields.encode(back))", label: PortalText.signIn.text(frame.language))
        ), status: .unauthorized, cookies: cookie.reference(in: request) == nil ? [] : [cookie.clearing])
    }

    private func problem(_ message: PortalText, heading: PortalText, frame: PortalPage.Frame, status: HTTPResponse.Status, retry: Bool) -> Response {
        Self.problem(message, heading: heading, frame: frame, status: status, retry: retry, pages: pages)
    }

    /// A page that says what happened and what to do next: try again, go back, or the start page.
    static func problem(
        _ message: PortalText, heading: PortalText, frame: PortalPage.Frame, status: HTTPResponse.Status, retry: Bool, pages: PortalPage,
        back: String? = nil
    ) -> Response {
        // A way back wins over trying again.
        let action = back.map { NoticeView.Action(href: $0, label: PortalText.myAccount.text(frame.language)) }
            ?? (retry ? NoticeView.Action(href: "/portal/login", label: PortalText.tryAgain.text(frame.language)) : nil)
        let values = NoticeView(heading: heading.text(frame.language), message: message.text(frame.language), action: action)
        return pages.response("problem", frame: frame, values: values, status: status)
    }

    /// `path` when it is a path on this site (`/…`, never `//host`), else nil.
    static func localPath(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("\\"), path.utf8.count <= 512,
              !path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return path
    }
}

/// What `start` reads.
struct StartView: PageValues {
    /// The sandbox is on: the start page offers its test people.
    let sandbox: Bool
    let bankid: Bool
    let vipps: Bool
    let passkeys: Bool
    /// nil without the sandbox.
    let people: [TryItPeople.Person]?
}
