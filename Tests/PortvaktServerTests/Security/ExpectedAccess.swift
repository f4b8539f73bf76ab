import PortvaktDomain

/// Issue 44, item 10: what every kind of caller gets from every route the server serves,
/// written out by hand. This is the specification the authorization matrix
/// (``AuthorizationMatrixTests``) holds the running server to, and it is deliberately not
/// derived from the ``RoutePolicy`` each route is registered with: a route declared more weakly than written here
/// (anonymous where a session is needed, for any member where a role is, without the step-up its
/// action needs) answers some caller differently from this table, and the matrix fails. A route
/// without a row here fails it too, so no route is added without deciding who may call it.
///
/// Each row is one route as the router lists it (`METHOD /path/{parameter}`), the callers the
/// matrix sends it (``Callers``), and, in the order of those callers' columns, what each gets
/// (``Outcome``). Changing a row is changing who may do what: it needs the same review as the
/// route's code.
///
/// The development sandbox's own routes (``sandboxPrefix``) are not listed one by one: they are
/// the simulated BankID, Vipps and member systems, served only when the sandbox is on (never in
/// production); the matrix calls each anonymously and asks only that it does not fail.
enum ExpectedAccess {
    /// What one caller gets from one route.
    enum Outcome: Hashable, Sendable, CustomStringConvertible {
        /// Let through: the route's own answer (not 401, 403 or a 5xx; on an organisation's
        /// administration page not 404 either, which is what a stranger gets).
        case ok
        /// Let through, and no personnummer in full in the answer (Sofie's conflict's numbers).
        case masked
        /// Let through, with the personnummer in full (both of Sofie's conflict's numbers).
        case full
        /// 401: no valid session (no token, a bound token without its proof, no portal cookie).
        case noSession
        /// 403: a session, without the role the route needs in the organisation.
        case noRole
        /// 404: the administration of an organisation the person has no role in, as if it did not exist.
        case notTheirs
        /// A session with the role, refused until it has this step-up.
        case stepUp(StepUp)
        /// 401: only the operator's bearer token opens it; no person's token does.
        case notOperator
        /// 401: only a member system's SCIM token opens it (issue 45); no person's token or
        /// portal session does, nor a revoked token.
        case notMemberSystem
        /// No credential asked: anyone may call it, and it checks what the protocol gives it.
        /// The matrix asks only that it never fails with a 5xx.
        case anyone

        /// The administrators' step-up (merging, resolving, revealing, removing every phone).
        static let adminStepUp = Outcome.stepUp(.electronicIDOrPasskey)
        /// Adding a passkey, raising a device key.
        static let eIDStepUp = Outcome.stepUp(.electronicID)
        /// Enrolling a device key, answered as the app has always been answered.
        static let enrolStepUp = Outcome.stepUp(.enrolmentLogin)
        /// Reading a contact's details.
        static let contactsStepUp = Outcome.stepUp(.deviceKeyOrPassword(.contactsRead))
        /// Submitting an expense claim.
        static let expensesStepUp = Outcome.stepUp(.deviceKeyOrPassword(.expensesSubmit))

        var description: String {
            switch self {
            case .ok: "let through"
            case .masked: "let through, numbers masked"
            case .full: "let through, numbers in full"
            case .noSession: "401 without a session"
            case .noRole: "403 without the role"
            case .notTheirs: "404, not their organisation"
            case .stepUp(let stepUp): "refused without \(stepUp)"
            case .notOperator: "401, the operator's token only"
            case .notMemberSystem: "401, a member system's token only"
            case .anyone: "anyone, never a 5xx"
            }
        }
    }

    /// Which step-up a refusal asks for.
    enum StepUp: Hashable, Sendable, CustomStringConvertible {
        /// A BankID or Vipps login within the last five minutes, or a sign-in with a device-bound
        /// passkey (S18.3): 401, over JSON `insufficient_user_authentication` with `max_age`.
        case electronicIDOrPasskey
        /// A BankID or Vipps login within the last five minutes; a passkey does not stand in: 401.
        case electronicID
        /// A BankID, Vipps or password login within the last five minutes, or the password again
        /// (a step-up for `device.enrol`), asked as device enrolment always has: 403
        /// `login_required` (the app then asks for the password or offers BankID or Vipps).
        case enrolmentLogin
        /// The access token's step-up for this action, by the device key (biometrics) or the
        /// password again (S11.3): 401 `insufficient_user_authentication` naming the action.
        case deviceKeyOrPassword(SensitiveAction)

        var description: String {
            switch self {
            case .electronicIDOrPasskey: "a fresh BankID/Vipps login or device-bound passkey"
            case .electronicID: "a fresh BankID/Vipps login"
            case .enrolmentLogin: "a fresh BankID/Vipps/password login or the password again (403 login_required)"
            case .deviceKeyOrPassword(let action): "a device-key or password step-up for \(action.rawValue)"
            }
        }
    }

    /// The callers the matrix sends a route, each set in the order of its columns.
    enum Callers: Hashable, Sendable {
        /// One request with no credential at all.
        case nobody
        /// ``apiCallers``, with their tokens.
        case api
        /// ``apiCallers`` again, against a route for the operator's token.
        case operatorToken
        /// ``memberSystemCallers``: SCIM's callers, with a member system's token or a person's credentials.
        case memberSystem
        /// ``portalCallers``, with their portal cookies (and CSRF tokens for a form).
        case portal
        /// ``ownSessionCallers``: routes that end the caller's own sessions, called last.
        case ownSessions
    }

    /// The API's callers, as `AuthorizationMatrixTests.apiCallers` makes them (it checks the names).
    /// Ingrid is NHF's administrator, Ola NHF's coordinator, Emma Hørselshemmedes Landsforbund's administrator (no role in NHF).
    static let apiCallers = [
        "nobody",
        "Ingrid (password)",
        "Ingrid (password step-up contacts.read)",
        "Ingrid (BankID now)",
        "Ingrid (device unlock)",
        "Ingrid (device step-up contacts.read)",
        "Ingrid (device step-up expenses.submit)",
        "Ola (NHF coordinator)",
        "Emma (HLF administrator)",
        "Ingrid's DPoP-bound token without its proof",
        "Ingrid's DPoP-bound token as Bearer",
    ]

    /// The portal's callers, as `AuthorizationMatrixTests.portalCallers` makes them. Lars is
    /// Blindeforbundet's administrator (no role in NHF). Ingrid's passkey is device-bound.
    static let portalCallers = [
        "no cookie",
        "Ingrid (password)",
        "Ingrid (BankID now)",
        "Ingrid (passkey now)",
        "Ola (NHF coordinator)",
        "Lars (Blindeforbundet administrator)",
    ]

    /// Kari, a peer mentor, is the one whose sessions are ended.
    static let ownSessionCallers = ["no cookie", "Kari (peer mentor)"]

    /// SCIM's callers, as `SCIMMatrixCallers.make` makes them (the matrix checks the names): no
    /// credential, a person's access token, a person's portal session, the member systems of
    /// Hørselshemmedes Landsforbund and of NHF (whose record the routes name), and NHF's token
    /// after it was revoked.
    static let memberSystemCallers = [
        "nobody",
        "Ingrid (BankID now)",
        "Ingrid's portal session (BankID now)",
        "HLF's member system",
        "NHF's member system",
        "NHF's revoked member-system token",
    ]

    static func columns(_ callers: Callers) -> [String] {
        switch callers {
        case .nobody: ["nobody"]
        case .api, .operatorToken: apiCallers
        case .memberSystem: memberSystemCallers
        case .portal: portalCallers
        case .ownSessions: ownSessionCallers
        }
    }

    /// One route and what each of its callers gets.
    struct Row: Sendable {
        let route: String
        let callers: Callers
        let outcomes: [Outcome]

        static func anyone(_ route: String) -> Row { Row(route: route, callers: .nobody, outcomes: [.anyone]) }
        static func api(_ route: String, _ outcomes: Outcome...) -> Row { Row(route: route, callers: .api, outcomes: outcomes) }
        static func operatorToken(_ route: String, _ outcomes: Outcome...) -> Row { Row(route: route, callers: .operatorToken, outcomes: outcomes) }
        static func portal(_ route: String, _ outcomes: Outcome...) -> Row { Row(route: route, callers: .portal, outcomes: outcomes) }
        static func ownSessions(_ route: String, _ outcomes: Outcome...) -> Row { Row(route: route, callers: .ownSessions, outcomes: outcomes) }
        static func memberSystem(_ route: String, _ outcomes: Outcome...) -> Row { Row(route: route, callers: .memberSystem, outcomes: outcomes) }

        /// What the caller named `caller` gets; nil when it is not one of this row's callers.
        func outcome(for caller: String) -> Outcome? {
            guard let index = ExpectedAccess.columns(callers).firstIndex(of: caller), index < outcomes.count else { return nil }
            return outcomes[index]
        }
    }

    /// The development sandbox's routes: `/sandbox` and everything under it.
    static let sandboxPrefix = "/sandbox"

    static func isSandbox(_ route: String) -> Bool {
        let path = route.split(separator: " ", maxSplits: 1).last.map(String.init) ?? ""
        return path == sandboxPrefix || path.hasPrefix(sandboxPrefix + "/")
    }

    /// Whether the route's method may change state (anything but a GET or HEAD).
    static func changesState(_ route: String) -> Bool {
        ["POST", "PUT", "PATCH", "DELETE"].contains(route.split(separator: " ", maxSplits: 1).first.map(String.init) ?? "")
    }

    /// Every row.
    static let rows: [Row] = publicPages + logins + appAPI + organisationAPI + account + ownSessions + administration + memberSystems

    /// The row of `route` (`METHOD /path/{parameter}`); nil for none.
    static func row(for route: String) -> Row? {
        byRoute[route]
    }

    private static let byRoute: [String: Row] = Dictionary(rows.map { ($0.route, $0) }, uniquingKeysWith: { first, _ in first })

    // MARK: - The table
    //
    // Columns, as the headers abbreviate them:
    // API: nobody · Ingrid after a password login · the same with a password step-up for
    //      contacts.read · Ingrid after BankID just now · Ingrid after a device unlock · the same
    //      with a device step-up for contacts.read · … for expenses.submit · Ola, NHF coordinator
    //      (BankID just now) · Emma, another organisation's administrator (BankID just now) ·
    //      Ingrid's DPoP-bound token without its proof · the same token sent as Bearer.
    // Portal: no cookie · Ingrid after a password sign-in · after BankID just now · after a
    //      device-bound passkey just now · Ola, NHF coordinator · Lars, another organisation's administrator.
    // Own sessions: no cookie · Kari, peer mentor.

    /// The start page, the portal's sign-in and language, health, keys, descriptions, and the operator's metrics.
    static let publicPages: [Row] = [
        .anyone("GET /"),
        .anyone("GET /language"),
        .anyone("GET /portal/login"),
        .anyone("GET /portal/callback"),
        .anyone("GET /health/live"),
        .anyone("GET /health/ready"),
        .anyone("GET /openapi.json"),
        .anyone("GET /.well-known/jwks.json"),
        .anyone("GET /.well-known/openid-configuration"),
        .anyone("GET /assets/portvakt.css"),
        // Issue 62 item 3: an organisation's logo and accent colour, which login pages show before anyone signs in.
        .anyone("GET /brands/{slug}/logo.svg"),
        .anyone("GET /brands/{slug}/brand.css"),
        // Only the operator's bearer token (PORTVAKT_METRICS_TOKEN), never a person's: every API caller gets 401.
        //  nobody            Ingrid pw         Ingrid pw+C       Ingrid BankID     Ingrid unlock     Ingrid dev+C      Ingrid dev+E      Ola coord.        Emma HLF adm.     DPoP no proof     DPoP as Bearer
        .operatorToken("GET /metrics",
            .notOperator,     .notOperator,     .notOperator,     .notOperator,     .notOperator,     .notOperator,     .notOperator,     .notOperator,     .notOperator,     .notOperator,     .notOperator),
    ]

    /// OAuth and the logins: no session exists yet, so each checks what the protocol gives it (see ``anonymousStateChanging``).
    static let logins: [Row] = [
        .anyone("GET /oauth/authorize"),
        .anyone("POST /oauth/par"),
        .anyone("POST /oauth/token"),
        .anyone("POST /oauth/revoke"),
        .anyone("POST /oauth/introspect"),
        .anyone("POST /oauth/password"),
        .anyone("POST /oauth/passkey/options"),
        .anyone("POST /oauth/passkey"),
        .anyone("GET /assets/passkey.js"),
        // S15: the claim's handle, bound to the browser by a cookie, is the credential; they stay anonymous.
        .anyone("POST /oauth/claim/email"),
        .anyone("POST /oauth/claim/code"),
        .anyone("POST /oauth/claim/cancel"),
        .anyone("GET /oauth/callback/bankid"),
        .anyone("GET /oauth/callback/vipps"),
        .anyone("GET /oauth/end-session"),
        .anyone("POST /oauth/end-session"),
        .anyone("GET /oauth/members-only"),
        // Issue 59: the browser's sign-in (its cookie) and the form's token bound to it are the credential.
        .anyone("GET /oauth/consent"),
        .anyone("POST /oauth/consent"),
        .anyone("POST /bankid/orders"),
        .anyone("POST /bankid/orders/collect"),
        .anyone("POST /bankid/orders/qr"),
        .anyone("POST /bankid/orders/cancel"),
        .anyone("GET /oauth/bankid/other-device"),
        .anyone("GET /oauth/bankid/other-device.js"),
        .anyone("POST /oauth/bankid/other-device/collect"),
        .anyone("POST /oauth/bankid/other-device/cancel"),
        .anyone("GET /portal/password/{token}"),
        .anyone("POST /portal/password/{token}"),
        // A device's unlock challenge: the app is locked, so no token; the device's signature is the credential at /oauth/token.
        .anyone("POST /v1/devices/{id}/challenges"),
    ]

    /// The app's JSON API for any member with a valid token (a DPoP-bound one only with its proof): their own devices, step-ups and data.
    static let appAPI: [Row] = [
        //  nobody            Ingrid pw         Ingrid pw+C       Ingrid BankID     Ingrid unlock     Ingrid dev+C      Ingrid dev+E      Ola coord.        Emma HLF adm.     DPoP no proof     DPoP as Bearer
        .api("GET /oauth/userinfo",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .noSession,       .noSession),
        // Enrolling a device key needs a BankID, Vipps or password login of the last five minutes (a key of that level), or the
        // password again; not a device unlock or a device step-up.
        .api("POST /v1/devices",
            .noSession,       .ok,              .ok,              .ok,              .enrolStepUp,     .enrolStepUp,     .enrolStepUp,     .ok,              .ok,              .noSession,       .noSession),
        // Raising a password-level key needs a BankID or Vipps login of the last five minutes.
        .api("POST /v1/devices/{id}/raise",
            .noSession,       .eIDStepUp,       .eIDStepUp,       .ok,              .eIDStepUp,       .eIDStepUp,       .eIDStepUp,       .ok,              .ok,              .noSession,       .noSession),
        .api("GET /v1/devices",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .noSession,       .noSession),
        .api("DELETE /v1/devices/{id}",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .noSession,       .noSession),
        .api("POST /v1/step-up",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .noSession,       .noSession),
        .api("POST /v1/step-up/password",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .noSession,       .noSession),
        .api("GET /v1/me",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .noSession,       .noSession),
        .api("GET /v1/activities",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .noSession,       .noSession),
        .api("POST /v1/activities",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .noSession,       .noSession),
        .api("GET /v1/contacts",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .noSession,       .noSession),
        // A contact's details need the token's step-up for contacts.read (biometrics or the password again); a fresh BankID login is not one.
        .api("GET /v1/contacts/{id}",
            .noSession,       .contactsStepUp,  .ok,              .contactsStepUp,  .contactsStepUp,  .ok,              .contactsStepUp,  .contactsStepUp,  .contactsStepUp,  .noSession,       .noSession),
        .api("POST /v1/contacts",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .noSession,       .noSession),
        .api("GET /v1/expenses",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .noSession,       .noSession),
        // Submitting an expense needs the token's step-up for expenses.submit; one for contacts.read does not do.
        .api("POST /v1/expenses",
            .noSession,       .expensesStepUp,  .expensesStepUp,  .expensesStepUp,  .expensesStepUp,  .expensesStepUp,  .ok,              .expensesStepUp,  .expensesStepUp,  .noSession,       .noSession),
    ]

    /// Running an organisation over JSON: NHF's administrators (the member list also its coordinators); another organisation's administrator is refused.
    static let organisationAPI: [Row] = [
        //  nobody            Ingrid pw         Ingrid pw+C       Ingrid BankID     Ingrid unlock     Ingrid dev+C      Ingrid dev+E      Ola coord.        Emma HLF adm.     DPoP no proof     DPoP as Bearer
        // Member lists never carry a personnummer in full, not even to an administrator.
        .api("GET /v1/organisations/{slug}/members",
            .noSession,       .masked,          .masked,          .masked,          .masked,          .masked,          .masked,          .masked,          .noRole,          .noSession,       .noSession),
        // Removing every phone of a member reaches every organisation they belong to: a BankID or Vipps login of the last five minutes (or a device-bound passkey) (review IV, item 3).
        .api("DELETE /v1/organisations/{slug}/members/{user}/devices",
            .noSession,       .adminStepUp,     .adminStepUp,     .ok,              .adminStepUp,     .adminStepUp,     .adminStepUp,     .noRole,          .noRole,          .noSession,       .noSession),
        .api("POST /v1/organisations/{slug}/users/merge",
            .noSession,       .adminStepUp,     .adminStepUp,     .ok,              .adminStepUp,     .adminStepUp,     .adminStepUp,     .noRole,          .noRole,          .noSession,       .noSession),
        .api("GET /v1/organisations/{slug}/member-sync",
            .noSession,       .masked,          .masked,          .masked,          .masked,          .masked,          .masked,          .noRole,          .noRole,          .noSession,       .noSession),
        // Any administrator sees the entry, masked; the numbers in full only after a BankID or Vipps login of the last five minutes.
        .api("GET /v1/organisations/{slug}/member-sync/{id}",
            .noSession,       .masked,          .masked,          .full,            .masked,          .masked,          .masked,          .noRole,          .noRole,          .noSession,       .noSession),
        .api("POST /v1/organisations/{slug}/member-sync/{id}/resolve",
            .noSession,       .adminStepUp,     .adminStepUp,     .ok,              .adminStepUp,     .adminStepUp,     .adminStepUp,     .noRole,          .noRole,          .noSession,       .noSession),
        .api("GET /v1/organisations/{slug}/outbox",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .noRole,          .noRole,          .noSession,       .noSession),
        .api("POST /v1/organisations/{slug}/outbox/{id}/retry",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok,              .ok,              .noRole,          .noRole,          .noSession,       .noSession),
    ]

    /// My account in the portal: anyone signed in, for their own account.
    static let account: [Row] = [
        //  no cookie         Ingrid pw         Ingrid BankID     Ingrid passkey    Ola coord.        Lars other adm.
        .portal("GET /account",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok),
        .portal("GET /account/data",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok),
        .portal("POST /account/devices/{id}/remove",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok),
        // Issue 59: taking back a consent only takes access away from a service.
        .portal("POST /account/applications/{client}/withdraw",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok),
        // Adding a passkey needs a BankID or Vipps login of the last five minutes; a passkey sign-in does not stand in (S18.1).
        .portal("POST /account/passkeys/options",
            .noSession,       .eIDStepUp,       .ok,              .eIDStepUp,       .ok,              .ok),
        .portal("POST /account/passkeys",
            .noSession,       .eIDStepUp,       .ok,              .eIDStepUp,       .ok,              .ok),
        .portal("POST /account/passkeys/{id}/remove",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok),
        // The organisations' list: anyone signed in (it lists only their own).
        .portal("GET /admin",
            .noSession,       .ok,              .ok,              .ok,              .ok,              .ok),
    ]

    /// Ending my own sessions: called last, by Kari, so that the other callers keep theirs.
    static let ownSessions: [Row] = [
        //  no cookie         Kari
        .ownSessions("POST /portal/logout",
            .noSession,       .ok),
        .ownSessions("POST /account/sessions/{id}/end",
            .noSession,       .ok),
        .ownSessions("POST /account/sessions/end-others",
            .noSession,       .ok),
    ]

    /// An organisation's administration in the portal: NHF's administrators (the member list also its coordinators, read-only); another organisation's administrator gets 404, as if the pages did not exist.
    static let administration: [Row] = [
        //  no cookie         Ingrid pw         Ingrid BankID     Ingrid passkey    Ola coord.        Lars other adm.
        .portal("GET /admin/{slug}",
            .noSession,       .ok,              .ok,              .ok,              .noRole,          .notTheirs),
        // Member lists never carry a personnummer in full.
        .portal("GET /admin/{slug}/members",
            .noSession,       .masked,          .masked,          .masked,          .masked,          .notTheirs),
        .portal("GET /admin/{slug}/members/{id}",
            .noSession,       .ok,              .ok,              .ok,              .noRole,          .notTheirs),
        // Removing every phone of a member: the administrators' step-up, as over JSON (review IV, item 3).
        .portal("POST /admin/{slug}/members/{id}/devices/remove",
            .noSession,       .adminStepUp,     .ok,              .ok,              .noRole,          .notTheirs),
        .portal("POST /admin/{slug}/members/{id}/invite",
            .noSession,       .ok,              .ok,              .ok,              .noRole,          .notTheirs),
        // Suspending a membership (issue 45 item 5): the administrators' step-up, as removing every phone. The matrix's
        // form names no account (`member`), so the step-up's callers get a 400 and Kari keeps her membership.
        .portal("POST /admin/{slug}/members/{id}/suspend",
            .noSession,       .adminStepUp,     .ok,              .ok,              .noRole,          .notTheirs),
        // Lifting it: the same step-up; the matrix's record is not suspended, so the step-up's callers get a 409.
        .portal("POST /admin/{slug}/members/{id}/suspension/lift",
            .noSession,       .adminStepUp,     .ok,              .ok,              .noRole,          .notTheirs),
        // The sync log and an entry are masked for every administrator; revealing and resolving need the administrators' step-up.
        .portal("GET /admin/{slug}/sync",
            .noSession,       .masked,          .masked,          .masked,          .noRole,          .notTheirs),
        .portal("GET /admin/{slug}/sync/{id}",
            .noSession,       .masked,          .masked,          .masked,          .noRole,          .notTheirs),
        .portal("POST /admin/{slug}/sync/{id}/reveal",
            .noSession,       .adminStepUp,     .full,            .full,            .noRole,          .notTheirs),
        .portal("POST /admin/{slug}/sync/{id}/resolve",
            .noSession,       .adminStepUp,     .ok,              .ok,              .noRole,          .notTheirs),
        .portal("GET /admin/{slug}/deliveries",
            .noSession,       .ok,              .ok,              .ok,              .noRole,          .notTheirs),
        .portal("POST /admin/{slug}/deliveries/{id}/retry",
            .noSession,       .ok,              .ok,              .ok,              .noRole,          .notTheirs),
        .portal("GET /admin/{slug}/merge",
            .noSession,       .ok,              .ok,              .ok,              .noRole,          .notTheirs),
        .portal("GET /admin/{slug}/merge/preview",
            .noSession,       .ok,              .ok,              .ok,              .noRole,          .notTheirs),
        .portal("POST /admin/{slug}/merge",
            .noSession,       .adminStepUp,     .ok,              .ok,              .noRole,          .notTheirs),
        .portal("GET /admin/{slug}/merge/done",
            .noSession,       .ok,              .ok,              .ok,              .noRole,          .notTheirs),
        .portal("GET /admin/{slug}/audit",
            .noSession,       .ok,              .ok,              .ok,              .noRole,          .notTheirs),
        .portal("GET /admin/{slug}/audit/export",
            .noSession,       .ok,              .ok,              .ok,              .noRole,          .notTheirs),
    ]

    /// SCIM for the member systems (issue 45): a member system's token only, never a person's
    /// token or portal session, and not once revoked. A token reaches its own organisation's
    /// records: HLF's member system lists and creates in HLF, and gets 404 for NHF's record, as
    /// for an id that does not exist.
    static let memberSystems: [Row] = [
        //  nobody            Ingrid's token    Ingrid's portal   HLF's system      NHF's system      NHF's revoked
        .memberSystem("GET /scim/v2/ServiceProviderConfig",
            .notMemberSystem, .notMemberSystem, .notMemberSystem, .ok,              .ok,              .notMemberSystem),
        .memberSystem("GET /scim/v2/ResourceTypes",
            .notMemberSystem, .notMemberSystem, .notMemberSystem, .ok,              .ok,              .notMemberSystem),
        .memberSystem("GET /scim/v2/ResourceTypes/{id}",
            .notMemberSystem, .notMemberSystem, .notMemberSystem, .ok,              .ok,              .notMemberSystem),
        .memberSystem("GET /scim/v2/Schemas",
            .notMemberSystem, .notMemberSystem, .notMemberSystem, .ok,              .ok,              .notMemberSystem),
        .memberSystem("GET /scim/v2/Schemas/{id}",
            .notMemberSystem, .notMemberSystem, .notMemberSystem, .ok,              .ok,              .notMemberSystem),
        // Each system creates in, and lists, its own organisation.
        .memberSystem("POST /scim/v2/Users",
            .notMemberSystem, .notMemberSystem, .notMemberSystem, .ok,              .ok,              .notMemberSystem),
        .memberSystem("GET /scim/v2/Users",
            .notMemberSystem, .notMemberSystem, .notMemberSystem, .ok,              .ok,              .notMemberSystem),
        .memberSystem("GET /scim/v2/Users/{id}",
            .notMemberSystem, .notMemberSystem, .notMemberSystem, .notTheirs,       .ok,              .notMemberSystem),
        .memberSystem("PUT /scim/v2/Users/{id}",
            .notMemberSystem, .notMemberSystem, .notMemberSystem, .notTheirs,       .ok,              .notMemberSystem),
        .memberSystem("PATCH /scim/v2/Users/{id}",
            .notMemberSystem, .notMemberSystem, .notMemberSystem, .notTheirs,       .ok,              .notMemberSystem),
        .memberSystem("DELETE /scim/v2/Users/{id}",
            .notMemberSystem, .notMemberSystem, .notMemberSystem, .notTheirs,       .ok,              .notMemberSystem),
    ]

    // MARK: - Anonymous routes that change state

    /// Every route that changes state (POST, PUT, PATCH, DELETE) without a caller, and why it
    /// needs no session. The routes declared anonymous that change state must be exactly these:
    /// making another one anonymous means adding it here with its reason.
    static let anonymousStateChanging: [(route: String, why: String)] = [
        ("POST /oauth/par", "RFC 9126: the app pushes its authorization request before anyone has logged in; the client, its redirect URI, PKCE and its DPoP key are checked, and the handle it gets grants nothing by itself"),
        ("POST /oauth/token", "the client authenticates with PKCE (a code), its refresh token or a device's signature (an unlock), bound to its DPoP key; not a session"),
        ("POST /oauth/revoke", "RFC 7009: the token to revoke is the credential, and revoking it only takes access away"),
        ("POST /oauth/introspect", "RFC 7662: a confidential client authenticates with its secret or a signed assertion, changes nothing, and learns only about tokens issued to it"),
        ("POST /oauth/password", "the login flow's 256-bit handle with the person's email and password is the credential; a form of our own pages only"),
        ("POST /oauth/passkey/options", "the login flow's 256-bit handle: a single-use challenge bound to that flow, which grants nothing until signed"),
        ("POST /oauth/passkey", "the login flow's handle and the passkey's signature over the flow's challenge prove the person (S18.2)"),
        ("POST /oauth/claim/email", "S15: the claim's 256-bit handle bound to the browser by a cookie is the credential, after a BankID or Vipps login found no member record"),
        ("POST /oauth/claim/code", "S15: the claim's handle bound to the browser's cookie, and the code sent by email"),
        ("POST /oauth/claim/cancel", "S15: the claim's handle bound to the browser's cookie; cancelling only tells the app not_registered"),
        ("POST /oauth/end-session", "OIDC RP-Initiated Logout: the id_token_hint names the session (a DPoP-bound one ends only with a proof by its key); it can only end a session"),
        ("POST /oauth/consent", "issue 59: the browser's single sign-on cookie and the form's token, an HMAC of that cookie and the request it answers; a form of our own pages only"),
        ("POST /bankid/orders", "the app starts a BankID order for its checked authorization request (client, redirect URI, PKCE) before anyone has logged in"),
        ("POST /bankid/orders/collect", "the order's random session id from its start is the credential; the code it yields is redeemed only with the app's PKCE verifier"),
        ("POST /bankid/orders/qr", "the order's random session id: the next QR frame for the person to scan, nothing more"),
        ("POST /bankid/orders/cancel", "the order's random session id; cancelling only ends that order"),
        ("POST /oauth/bankid/other-device/collect", "the other-device page's order session id; the login goes to the app's redirect URI, its code redeemed with PKCE as after any other; a form or script of our own pages only"),
        ("POST /oauth/bankid/other-device/cancel", "the other-device page's order session id; cancelling only ends that order; a form of our own pages only"),
        ("POST /portal/password/{token}", "the administrator's invitation's one-time token (24 hours, bound to one account or member record) is the credential"),
        ("POST /v1/devices/{id}/challenges", "the app is locked, so there is no token: an unlock challenge is single-use and the device's signature over it is the credential at /oauth/token (a step-up's challenge asks for the user's token)"),
    ]

    /// Anonymous GETs that change state all the same (a login begun or completed, a session
    /// ended, a cookie set), and why each needs no session. Not checked for completeness (a GET
    /// is assumed to read); each must be declared anonymous.
    static let anonymousGETsThatChangeState: [(route: String, why: String)] = [
        ("GET /language", "sets the language cookie only"),
        ("GET /portal/login", "begins a portal sign-in bound to this browser by a cookie; nothing is granted until a person logs in"),
        ("GET /portal/callback", "the provider's code and state, bound to the browser's sign-in cookie, open the portal session"),
        ("GET /oauth/authorize", "begins a login for the app's checked authorization request; nothing is granted until a person logs in"),
        ("GET /oauth/callback/bankid", "BankID's code and the flow's state complete a login the browser began"),
        ("GET /oauth/callback/vipps", "Vipps's code and the flow's state complete a login the browser began"),
        ("GET /oauth/end-session", "OIDC RP-Initiated Logout by GET: as its POST, the id_token_hint names the session, and it can only end one"),
        ("GET /oauth/bankid/other-device", "starts a BankID order for the app's checked authorization request, throttled per address"),
    ]
}
