import Foundation
import Logging
import PortvaktCore
import PortvaktModels
import PortvaktProtocol

/// What finishing a login writes: the session, its code and member sync in one transaction, and the audit of a failed one.
public protocol LoginCompletionStore: Sendable {
    func takeLoginFlow(stateHash: Data, now: Date) async throws -> LoginFlow?
    func recordLogin(
        session: Session?, code: AuthorizationCode?, browser: BrowserLogin?, eidLogin: Bool, passwordLogin: Bool, memberSync: MemberSyncWrites,
        audit: AuditEvent, bankIDOrderID: String?, now: Date
    ) async throws
    func memberships(userID: String) async throws -> [Membership]
    func organisationRoles(userID: String) async throws -> [OrganisationRoles]
    func consent(userID: String, clientID: String) async throws -> Consent?
    func append(_ event: AuditEvent) async throws
}

/// The end of every login: a session, a single-use code for the app, the redirect carrying it
/// (with `iss`, RFC 9207), and the audit event. Failures redirect with the message contract.
public struct LoginCompletion: Sendable {
    let store: any LoginCompletionStore
    let planner: MemberSyncPlanner
    let lifetimes: SessionLifetimes
    let portal: PortalSessionRule
    let address: PublicAddress
    /// Each registered client's policy; a client not named (the portal) is first party and signs the browser in.
    let policies: [String: ClientPolicy]
    let logger: Logger
    let now: @Sendable () -> Date

    /// The portal's session lives as long as its browser session, not as long as the app's.
    public struct PortalSessionRule: Sendable {
        let clientID: String
        let idle: TimeInterval
        let absolute: TimeInterval

        public init(clientID: String, idle: TimeInterval, absolute: TimeInterval) {
            self.clientID = clientID
            self.idle = idle
            self.absolute = absolute
        }
    }

    public init(
        store: any LoginCompletionStore, planner: MemberSyncPlanner, lifetimes: SessionLifetimes, portal: PortalSessionRule, address: PublicAddress,
        policies: [String: ClientPolicy] = [:], logger: Logger, now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.planner = planner
        self.lifetimes = lifetimes
        self.portal = portal
        self.address = address
        self.policies = policies
        self.logger = logger
        self.now = now
    }

    public struct Method: Sendable {
        public let provider: IdentityProvider
        public let amr: [String]
        public let acr: String
        /// When the person authenticated at the provider (its ID token's `auth_time`); nil: now.
        /// A provider that reused an earlier sign-in says so here, and step-up freshness counts
        /// from it, not from Portvakt's clock (review II, item 7).
        public var authTime: Date?
        /// The passkey of a passkey sign-in: the session records it, and ends when it is removed.
        public var passkeyID: String?
        /// `bankid-login`, `vipps-login`, `password-login` or `passkey-login`.
        var source: String { "\(provider.rawValue)-login" }

        public init(provider: IdentityProvider, amr: [String], acr: String, authTime: Date? = nil, passkeyID: String? = nil) {
            self.provider = provider
            self.amr = amr
            self.acr = acr
            self.authTime = authTime
            self.passkeyID = passkeyID
        }
    }

    /// How a login in the browser ended.
    public enum Finished: Sendable, Equatable {
        /// The client's redirect with its code; `browserSignedIn` when the browser's sign-in was made too.
        case code(String, browserSignedIn: Bool)
        /// Where to send the browser instead: the client's redirect with an error, or the members-only page.
        case refused(String)
        /// The browser is signed in (`signIn`, the new sign-in's id); the person is asked next whether
        /// the third-party client may have what it asked for (the code comes from that sign-in,
        /// ``fromBrowserSession(_:_:user:)``).
        case consentNeeded(signIn: String)
    }

    /// The policy of a client: the portal, inside the server, is first party and signs the browser in.
    public func policy(of clientID: String) -> ClientPolicy {
        policies[clientID] ?? ClientPolicy(singleSignOn: true)
    }

    /// Issues the code and returns where to send the browser.
    /// Every BankID and Vipps login in the browser, membership claim, password and passkey ends
    /// here: a disabled account or one no organisation has is refused with its message.
    /// - Parameter browser: the cookie's hash for a new sign-in of this browser at Portvakt, and
    ///   its earlier sign-in if any; used when the client takes part in single sign-on.
    public func succeed(
        _ login: PendingLogin, user: User, method: Method, personnummer: ProvidedPersonnummer? = nil,
        browser: (idHash: Data, earlier: BrowserSession?)? = nil
    ) async throws -> Finished {
        // An operator may have disabled the account (issue 45 item 5): the same words on every way in.
        guard user.disabledAt == nil else { return .refused(try await failDisabled(login)) }
        if let refused = try await refusal(of: user, login: login) { return .refused(refused) }
        let policy = policy(of: login.request.clientID)
        let signIn = browser.flatMap { browser in
            policy.singleSignOn ? BrowserLogin(session: BrowserSession(
                idHash: browser.idHash, userID: user.id, provider: method.provider.rawValue, amr: method.amr, acr: method.acr,
                authTime: min(method.authTime ?? now(), now()), passkeyID: method.passkeyID,
                idle: lifetimes.browserIdle, absolute: lifetimes.browserAbsolute, now: now()
            ), replacing: browser.earlier) : nil
        }
        do {
            let asksAgain = login.request.prompts.contains("consent") && !policy.firstParty
            let consented = policy.consentCovers(try await store.consent(userID: user.id, clientID: login.request.clientID), scope: login.request.scope)
            if let signIn, asksAgain || !consented {
                try await recordBrowserLogin(signIn, user: user, method: method, personnummer: personnummer)
                await forgetContinuation(of: login.request)
                return .consentNeeded(signIn: signIn.session.id)
            }
            let code = try await issueCode(for: login.request, user: user, method: method, personnummer: personnummer, browser: signIn)
            await forgetContinuation(of: login.request)
            return .code(appRedirect(login.request, [("code", code)]), browserSignedIn: signIn != nil)
        } catch let error as StoreError where error.isDisabledAccount {
            // Disabled between the check above and the session (migration 28 refused it).
            return .refused(try await failDisabled(login))
        }
    }

    /// A code from the browser's sign-in, without a new authentication (single sign-on): the
    /// same checks as a login's, a session resting on that sign-in, no write-back, and the
    /// method, level and time of the authentication that made it.
    public func fromBrowserSession(_ request: AppAuthorizationRequest, _ browser: BrowserSession, user: User) async throws -> String {
        let login = PendingLogin(request: request, method: IdentityProvider(rawValue: browser.provider) ?? .password)
        // Portvakt's own app and CLI sign in on the device only.
        guard policy(of: request.clientID).singleSignOn, browser.userId == user.id else {
            return try await fail(login, error: .accessDenied, message: .loginFailed, reason: "this client takes no part in single sign-on")
        }
        guard user.disabledAt == nil else { return try await failDisabled(login) }
        if let refused = try await refusal(of: user, login: login) { return refused }
        let method = Method(
            provider: login.method, amr: browser.amr.split(separator: " ").map(String.init), acr: browser.acr,
            authTime: Date(millisecondsSince1970: browser.authTime), passkeyID: browser.passkeyId
        )
        do {
            let code = try await issueCode(for: request, user: user, method: method, restingOn: browser)
            await forgetContinuation(of: request)
            return appRedirect(request, [("code", code)])
        } catch let error as StoreError where error.isDisabledAccount {
            return try await failDisabled(login)
        }
    }

    /// Why the person may not sign in to the login's client now, as the redirect that says so; nil when they may.
    private func refusal(of user: User, login: PendingLogin) async throws -> String? {
        switch try await admission(of: user, to: login.request.clientID) {
        case .admitted:
            return nil
        case .notMember:
            // A member system may have ended every membership since the account was made (issue 45).
            return try await fail(login, error: .accessDenied, message: .notRegistered, reason: "no organisation has this person as a member")
        case .membersOnly(let slugs):
            try await recordFailure(method: login.method, message: .notRegistered, reason: "not a member of an organisation this client admits")
            await forgetContinuation(of: login.request)
            return membersOnlyPage(login.request, organisations: slugs)
        }
    }

    /// A login that signs the browser in and issues no code yet: the sign-in, the write-back and
    /// the audit event, in one transaction.
    private func recordBrowserLogin(_ signIn: BrowserLogin, user: User, method: Method, personnummer: ProvidedPersonnummer?) async throws {
        let now = self.now()
        var memberSync = MemberSyncWrites()
        if let personnummer {
            memberSync = try await planner.plan(for: user, provided: personnummer, source: method.source, now: now)
        }
        try await store.recordLogin(
            session: nil, code: nil, browser: signIn, eidLogin: [.bankid, .vipps].contains(method.provider),
            passwordLogin: method.provider == .password, memberSync: memberSync,
            audit: AuditEvent(
                occurredAt: now, action: .loginSucceeded, outcome: "success", actorUserID: UUID(uuidString: user.id),
                subjectType: "browser_session", subjectID: signIn.session.id, source: method.source, details: [:]
            ),
            bankIDOrderID: nil, now: now
        )
        DomainMetrics.login(provider: method.provider.rawValue, outcome: "success")
    }

    /// A pushed request's pages carry a link of their own (``AppAuthorizationRequest/continuation``);
    /// the login over, the last one is taken, so nobody who sees it can start another (review IV,
    /// L2). Left to expire with the login when the database does not answer: it starts one login
    /// at most, and only for this app.
    public func forgetContinuation(of request: AppAuthorizationRequest) async {
        guard let handle = request.continuation else { return }
        _ = try? await store.takeLoginFlow(stateHash: RefreshTokenSecret.hash(handle), now: now())
    }

    private func failDisabled(_ login: PendingLogin) async throws -> String {
        try await fail(login, error: .accessDenied, message: .accountDisabled, reason: "the account is disabled")
    }

    /// Starts the user's session and stores a single-use code for it, bound to the app's
    /// request (client, redirect URI, PKCE challenge), with what the login's personnummer does
    /// to the member records, all in one transaction. `code` is random unless the caller must be
    /// able to give the same code again (the BankID order flow derives it).
    /// - Parameters:
    ///   - personnummer: what a BankID or Vipps login brought; nil for a password login.
    ///   - bankIDOrderID: the BankID order this login completes, in the same transaction.
    /// - Throws: ``StoreError/notFound(_:)`` (`passkeys`) when the passkey that signed in was
    ///   removed meanwhile: no session outlives its passkey.
    ///   - browser: the browser's new sign-in, written in the same transaction.
    ///   - restingOn: the browser's sign-in the code is issued from (single sign-on): no new
    ///     authentication, so nothing is written back and the last eID login stays as it was.
    public func issueCode(
        for request: AppAuthorizationRequest, user: User, method: Method, personnummer: ProvidedPersonnummer? = nil,
        code: String = randomToken(), bankIDOrderID: String? = nil, browser: BrowserLogin? = nil, restingOn: BrowserSession? = nil
    ) async throws -> String {
        let now = self.now()
        let forPortal = request.clientID == portal.clientID
        var session = Session.starting(
            userID: user.id, clientID: request.clientID, passkeyID: method.passkeyID, amr: method.amr, acr: method.acr,
            authTime: min(method.authTime ?? now, now),
            idleLifetime: forPortal ? portal.idle : lifetimes.idle,
            absoluteLifetime: forPortal ? portal.absolute : lifetimes.absolute, scope: request.scope, now: now
        )
        session.browserSessionId = browser?.session.id ?? restingOn?.id
        if policy(of: request.clientID).notifiesLogout { session.notifyLogout = 1 }
        var memberSync = MemberSyncWrites()
        if let personnummer {
            memberSync = try await planner.plan(for: user, provided: personnummer, source: method.source, now: now)
        }
        try await store.recordLogin(
            session: session,
            code: AuthorizationCode(
                codeHash: RefreshTokenSecret.hash(code), sessionID: session.id, clientID: request.clientID,
                redirectURI: request.redirectURI, codeChallenge: request.codeChallenge, scope: request.scope,
                nonce: request.nonce, createdAt: now, expiresAt: now.addingTimeInterval(lifetimes.authorizationCode),
                dpopJKT: request.dpopJKT
            ),
            browser: browser, eidLogin: restingOn == nil && [.bankid, .vipps].contains(method.provider),
            passwordLogin: restingOn == nil && method.provider == .password, memberSync: memberSync,
            audit: AuditEvent(
                occurredAt: now, action: .loginSucceeded, outcome: "success", actorUserID: UUID(uuidString: user.id),
                subjectType: "session", subjectID: session.id, source: restingOn == nil ? method.source : "single-sign-on",
                details: ["client": request.clientID]
            ),
            bankIDOrderID: bankIDOrderID, now: now
        )
        logger.info("Login succeeded", metadata: ["method": "\(method.provider.rawValue)", "user": "\(user.id)"])
        DomainMetrics.login(provider: method.provider.rawValue, outcome: "success")
        return code
    }

    /// Whether a login may sign the person in to a client.
    public enum Admission: Sendable, Equatable {
        case admitted
        /// No organisation has the account as a member now: a login of someone whose every
        /// membership ended signs nobody in.
        case notMember
        /// The client registered `organisations` (these slugs), and the person belongs to none of them.
        case membersOnly([String])
    }

    public func admission(of user: User, to clientID: String) async throws -> Admission {
        let required = policy(of: clientID).organisations
        guard !required.isEmpty else {
            return try await store.memberships(userID: user.id).isEmpty ? .notMember : .admitted
        }
        let slugs = try await store.organisationRoles(userID: user.id).map(\.slug)
        if slugs.isEmpty { return .notMember }
        return required.contains(where: slugs.contains) ? .admitted : .membersOnly(required)
    }

    /// The page that tells a person an organisation-bound client is not for them, and from which
    /// the client hears `access_denied` (never a code): `/oauth/members-only`, which shows it
    /// only for a redirect URI registered for the client.
    public func membersOnlyPage(_ request: AppAuthorizationRequest, organisations: [String]) -> String {
        var fields = [("client_id", request.clientID), ("redirect_uri", request.redirectURI), ("ui_locales", request.language.rawValue)]
        if let state = request.state { fields.append(("state", state)) }
        return URLComponents.appending(fields, to: address.current + "/oauth/members-only")
    }

    /// Sends the app an error with its message id, and records the failure.
    public func fail(_ login: PendingLogin, error: OAuthErrorCode, message: UserMessage, reason: String) async throws -> String {
        try await recordFailure(method: login.method, message: message, reason: reason)
        await forgetContinuation(of: login.request)
        return appRedirect(login.request, [
            ("error", error.rawValue), ("error_description", message.text(.en)), ("message_id", message.id),
        ])
    }

    /// The audit event and log line of a failed login.
    public func recordFailure(method: IdentityProvider, message: UserMessage, reason: String) async throws {
        try await store.append(AuditEvent(
            occurredAt: now(), action: .loginFailed, outcome: message.isQuiet ? "cancelled" : "failure",
            source: "\(method.rawValue)-login", details: ["reason": reason, "message_id": message.id]
        ))
        logger.notice("Login failed", metadata: ["method": "\(method.rawValue)", "reason": "\(reason)"])
        DomainMetrics.login(provider: method.rawValue, outcome: message.isQuiet ? "cancelled" : "failure")
    }

    /// The app's redirect URI with `fields`, its `state` and our `iss`.
    public func appRedirect(_ request: AppAuthorizationRequest, _ fields: [(String, String)]) -> String {
        Self.redirect(to: request.redirectURI, fields, state: request.state, issuer: address.current)
    }

    public static func redirect(to uri: String, _ fields: [(String, String)], state: String?, issuer: String) -> String {
        var all = fields
        if let state { all.append(("state", state)) }
        all.append(("iss", issuer))
        return URLComponents.appending(all, to: uri)
    }
}
