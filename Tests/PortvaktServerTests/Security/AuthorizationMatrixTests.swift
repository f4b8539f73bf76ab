import Foundation
import NIOHTTP1
import PortvaktCore
import PortvaktDomain
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// Review II, item 8, and issue 44, item 10: every route the router serves is called by every
/// kind of caller, and each answer is the one written out for it in ``ExpectedAccess``, for the
/// JSON API and the portal alike. The expectations are not taken from the routes' declared
/// ``RoutePolicy``: a route declared too weakly answers some caller otherwise than the table
/// says, and fails here.
@Suite("Authorization matrix")
struct AuthorizationMatrixTests {
    /// An API caller: a name (the table's column) and its headers.
    struct APICaller {
        let name: String
        let headers: [(String, String)]
    }

    /// A portal caller: a name (the table's column) and its cookie.
    struct PortalCaller {
        let name: String
        let cookie: String?
    }

    /// Routes that end the caller's own sessions: called last, by a throwaway caller.
    static let endingSessions = ["POST /account/sessions/{id}/end", "POST /account/sessions/end-others", "POST /portal/logout"]

    static let metricsToken = "operator-metrics-token-for-the-matrix"

    /// What the routes of a server with the matrix's settings (the operator's `/metrics` among
    /// them) were declared with, outside the sandbox: read once, from a server built in process.
    static let declared = Task {
        try await InProcessRouteTests.withRouter(settings: ["PORTVAKT_METRICS_TOKEN": AuthorizationMatrixTests.metricsToken]) { _, _, table in
            table.declarations.filter { !ExpectedAccess.isSandbox($0.key) }.mapValues(\.policy)
        }
    }

    @Test("Only userinfo opens to any relying party's token: every other member route is Portvakt's own API, for the clients with portvakt_api")
    func onlyUserinfoForAnyRelyingParty() async throws {
        let declared = try await Self.declared.value
        #expect(declared.filter { $0.value.anyRelyingParty }.keys.sorted() == ["GET /oauth/userinfo"])
    }

    @Test("Every route has its expected outcome written out for every kind of caller, and every caller gets it", arguments: TestDatabase.kinds)
    func matrix(kind: DatabaseKind) async throws {
        // Named localhost, so that passkeys work and a passkey's caller is in the matrix (S18.3).
        try await PasskeyTests.run(kind, settings: ["PORTVAKT_METRICS_TOKEN": Self.metricsToken]) { broker in
            let declared = try #require(broker.declared)
            let undeclared = declared.undeclared(broker.routes)
            #expect(undeclared.isEmpty, "routes without a declared policy: \(undeclared)")
            let stale = declared.declarations.keys.filter { !broker.routes.contains($0) }
            #expect(stale.isEmpty, "declared routes the router no longer serves: \(stale.sorted())")
            let unwritten = broker.routes.filter { ExpectedAccess.row(for: $0) == nil && !ExpectedAccess.isSandbox($0) }
            #expect(unwritten.isEmpty, "routes the router serves with no expected outcome written out in ExpectedAccess: \(unwritten)")
            let unserved = ExpectedAccess.rows.map(\.route).filter { !broker.routes.contains($0) }
            #expect(unserved.isEmpty, "rows of ExpectedAccess for routes the router does not serve: \(unserved)")

            // Real ids, so that an answer is about the caller and not about an unknown id.
            let entry = try await AdminPortalTests.sofiesConflict(broker)
            let kari = try await broker.tokens(provider: "vipps", user: "kari")
            let kariID = try await broker.userID(token: try #require(kari["access_token"] as? String))
            let ids = try await broker.withStore { store in
                let nhf = try #require(try await store.organisation(slug: "nhf"))
                let record = try #require(try await store.memberRecords(organisationID: nhf.id).first { $0.externalRef == "sandbox-kari" })
                let outbox = try #require(try await store.outboxMessages(organisationID: nhf.id).first)
                return (record: record.id, outbox: outbox.id)
            }
            let values = [
                "slug": "nhf", "user": kariID, "token": "not-an-invitation", "member-sync": entry, "outbox": ids.outbox,
                "members": ids.record, "sync": entry, "deliveries": ids.outbox, "devices": "00000000-0000-0000-0000-000000000000",
                "sessions": "00000000-0000-0000-0000-000000000000", "contacts": "00000000-0000-0000-0000-000000000000",
            ]

            let api = try await Self.apiCallers(broker)
            let portal = try await Self.portalCallers(broker)
            let portalCallers = Array(portal.dropLast())
            let ownSessionCallers = [portal[0], portal[portal.count - 1]]
            // Issue 45: SCIM's callers, among them Ingrid's token and portal session.
            let scim = try await SCIMMatrixCallers.make(broker, appToken: api[3].headers, portalCookie: try #require(portal[2].cookie))
            // The table's columns are these callers, in this order.
            #expect(api.map(\.name) == ExpectedAccess.apiCallers)
            #expect(portalCallers.map(\.name) == ExpectedAccess.portalCallers)
            #expect(ownSessionCallers.map(\.name) == ExpectedAccess.ownSessionCallers)
            #expect(scim.callers.map(\.name) == ExpectedAccess.memberSystemCallers)

            var wrong: [String] = []
            var checked = 0
            let ordered = broker.routes.filter { !Self.endingSessions.contains($0) } + Self.endingSessions.filter(broker.routes.contains)
            for route in ordered {
                let parts = route.split(separator: " ", maxSplits: 1).map(String.init)
                let path = Self.fill(parts[1], values: values) + Self.query(for: parts[1], kariID: kariID)
                let method = HTTPMethod(rawValue: parts[0])
                guard let row = ExpectedAccess.row(for: route) else {
                    // The development sandbox's simulated providers: no session is asked for.
                    if ExpectedAccess.isSandbox(route) {
                        let reply = try await broker.send(path, method: method, headers: [("Accept", "application/json")])
                        checked += 1
                        if reply.status >= 500 { wrong.append("\(route) anonymously: \(reply.status)") }
                    }
                    continue
                }
                let columns = ExpectedAccess.columns(row.callers)
                if row.outcomes.count != columns.count {
                    wrong.append("\(route): \(row.outcomes.count) outcomes written for \(columns.count) callers")
                    continue
                }
                // A refusal on an organisation's administration page must not look like a stranger's 404.
                let organisationPage = parts[1].contains("{slug}")
                switch row.callers {
                case .api:
                    for (caller, expected) in zip(api, row.outcomes) {
                        let reply = try await broker.send(path, method: method, raw: Self.jsonBody(for: route), headers: caller.headers + [("Accept", "application/json")])
                        checked += 1
                        if let problem = Self.check(reply, expected: expected, organisationPage: false, api: true) {
                            wrong.append("\(route) as \(caller.name): \(problem)")
                        }
                    }
                case .portal, .ownSessions:
                    let callers = row.callers == .ownSessions ? ownSessionCallers : portalCallers
                    for (caller, expected) in zip(callers, row.outcomes) {
                        var headers = [("Accept", "text/html")]
                        var form: [(String, String)]? = nil
                        if let cookie = caller.cookie {
                            headers.append(("Cookie", cookie))
                            if method == .POST {
                                let page = try await broker.send("/account", headers: [("Cookie", cookie)])
                                form = [("csrf", (try? PortalTests.csrf(in: page.body)) ?? ""), ("keep", kariID), ("remove", kariID)]
                            }
                        } else if method == .POST {
                            form = [("csrf", "x")]
                        }
                        let reply = try await broker.send(path, method: method, form: form, headers: headers)
                        checked += 1
                        if let problem = Self.check(reply, expected: expected, organisationPage: organisationPage) {
                            wrong.append("\(route) as \(caller.name): \(problem)")
                        }
                    }
                case .operatorToken:
                    for (caller, expected) in zip(api, row.outcomes) {
                        let reply = try await broker.send(path, method: method, headers: caller.headers)
                        checked += 1
                        if let problem = Self.check(reply, expected: expected, organisationPage: false) {
                            wrong.append("\(route) as \(caller.name): \(problem)")
                        }
                    }
                case .memberSystem:
                    for (caller, expected) in zip(scim.callers, row.outcomes) {
                        let request = try await scim.request(for: route, broker)
                        let reply = try await broker.send(request.path, method: method, raw: request.body, headers: caller.headers + [("Accept", "application/scim+json")])
                        checked += 1
                        if let problem = Self.check(reply, expected: expected, organisationPage: false) {
                            wrong.append("\(route) as \(caller.name): \(problem)")
                        }
                    }
                case .nobody:
                    // No session is asked for; the protocol's own checks are the hostile-input suites'.
                    let reply = try await broker.send(path, method: method, headers: [("Accept", "application/json")])
                    checked += 1
                    if let problem = Self.check(reply, expected: row.outcomes[0], organisationPage: false) {
                        wrong.append("\(route) anonymously: \(problem)")
                    }
                }
            }
            #expect(wrong.isEmpty, "\(wrong.count) of \(checked) answers differ from the expected access:\n\(wrong.joined(separator: "\n"))")
            #expect(checked > 350)
        }
    }

    @Test("Issue 44, item 10: the written-out table has one row for every route declared outside the sandbox, with an outcome for every caller the matrix sends it")
    func tableCoversEveryRoute() async throws {
        let routes = ExpectedAccess.rows.map(\.route)
        let duplicates = Dictionary(grouping: routes, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(duplicates.isEmpty, "routes with more than one row in ExpectedAccess: \(duplicates)")
        let declared = try await Set(Self.declared.value.keys)
        let missing = declared.subtracting(routes).sorted()
        #expect(missing.isEmpty, "routes declared with no expected outcome written out in ExpectedAccess: \(missing)")
        let extra = Set(routes).subtracting(declared).sorted()
        #expect(extra.isEmpty, "rows in ExpectedAccess for routes no registration declares: \(extra)")
        for row in ExpectedAccess.rows {
            #expect(row.outcomes.count == ExpectedAccess.columns(row.callers).count, "\(row.route): \(row.outcomes.count) outcomes for \(ExpectedAccess.columns(row.callers).count) callers")
            #expect(!ExpectedAccess.isSandbox(row.route), "\(row.route): the sandbox's routes are not listed one by one")
            let anonymous = row.callers == .nobody, anyone = row.outcomes.contains(.anyone)
            #expect(anonymous == anyone, "\(row.route): `anyone` is the outcome of an anonymous route, and its only one")
        }
    }

    @Test("Issue 44, item 10: the anonymous routes that change state are exactly the listed ones, each with why it needs no session")
    func anonymousStateChangingRoutes() async throws {
        let policies = try await Self.declared.value
        let listed = ExpectedAccess.anonymousStateChanging.map { $0.route }
        #expect(Set(listed).count == listed.count, "a route listed twice")
        let reading = listed.filter { !ExpectedAccess.changesState($0) }
        #expect(reading.isEmpty, "only POST, PUT, PATCH and DELETE routes belong in the list: \(reading)")
        let declared = Set(policies.filter { $0.value.caller == .anonymous && ExpectedAccess.changesState($0.key) }.keys)
        let unexplained = declared.subtracting(listed).sorted()
        #expect(unexplained.isEmpty, "anonymous routes that change state with no reason in ExpectedAccess.anonymousStateChanging: \(unexplained)")
        let notAnonymous = Set(listed).subtracting(declared).sorted()
        #expect(notAnonymous.isEmpty, "listed as anonymous, but not declared so: \(notAnonymous)")
        let written = Set(ExpectedAccess.rows.filter { $0.callers == .nobody && ExpectedAccess.changesState($0.route) }.map(\.route))
        #expect(written == Set(listed), "the table's anonymous state-changing rows and the list differ: \(written.symmetricDifference(listed).sorted())")
        for (route, why) in ExpectedAccess.anonymousStateChanging + ExpectedAccess.anonymousGETsThatChangeState {
            #expect(why.count >= 20, "\(route): say why it needs no session")
        }
        for (route, _) in ExpectedAccess.anonymousGETsThatChangeState {
            let anonymous = policies[route]?.caller == .anonymous
            #expect(route.hasPrefix("GET ") && anonymous, "\(route): listed as an anonymous GET")
        }
    }

    @Test("Issue 44, item 10: no route is declared more weakly than the table: the callers it is written for, the role, the step-up of its action")
    func declarationsNoWeakerThanTheTable() async throws {
        let policies = try await Self.declared.value
        var wrong: [String] = []
        for row in ExpectedAccess.rows {
            // A route without a declaration is tableCoversEveryRoute's to report.
            guard let policy = policies[row.route] else { continue }
            wrong += Self.declarationProblems(row, policy).map { "\(row.route): \($0)" }
        }
        #expect(wrong.isEmpty, "\(wrong.count) declarations differ from the expected access:\n\(wrong.joined(separator: "\n"))")
    }

    /// Where `policy` declares the route otherwise than `row` expects: a caller of another kind,
    /// a role the table refuses, a step-up it asks for that the declared action's policy does not
    /// (or accepts one more), or an action whose step-up the table never asks for.
    static func declarationProblems(_ row: ExpectedAccess.Row, _ policy: RoutePolicy) -> [String] {
        var problems: [String] = []
        let emma = row.outcome(for: "Emma (HLF administrator)"), ola = row.outcome(for: "Ola (NHF coordinator)")
        let lars = row.outcome(for: "Lars (Blindeforbundet administrator)")
        switch (row.callers, policy.caller) {
        case (.nobody, .anonymous), (.operatorToken, .operatorToken), (.ownSessions, .portalMember), (.memberSystem, .memberSystemToken):
            break
        case (.api, .member):
            if emma == .noRole { problems.append("declared for any member; the table refuses a member without a role here") }
        case (.api, .role(let roles)):
            if ola == .noRole && roles.contains(.coordinator) { problems.append("declared for coordinators; the table refuses them") }
        case (.portal, .portalMember):
            if lars == .notTheirs || ola == .noRole { problems.append("declared for anyone signed in; the table asks for a role in the organisation") }
        case (.portal, .portalRole(let roles)):
            if ola == .noRole && roles.contains(.coordinator) { problems.append("declared for coordinators; the table refuses them") }
        default:
            problems.append("declared for \(policy.caller); the table is written for the callers \(row.callers)")
        }
        var stepUps: [ExpectedAccess.StepUp] = []
        for outcome in row.outcomes {
            if case .stepUp(let stepUp) = outcome, !stepUps.contains(stepUp) { stepUps.append(stepUp) }
        }
        for stepUp in stepUps {
            guard let action = policy.action else {
                problems.append("the table asks for \(stepUp); the declaration names no action whose policy asks for it")
                continue
            }
            let kinds: Set<StepUpKind>
            switch stepUp {
            case .electronicIDOrPasskey: kinds = [.freshElectronicID, .freshPasskey]
            case .electronicID: kinds = [.freshElectronicID]
            case .enrolmentLogin: kinds = [.freshElectronicID, .freshPasswordLogin, .freshPassword]
            case .deviceKeyOrPassword(let named):
                kinds = [.deviceKey, .freshPassword]
                if named != action { problems.append("the table asks for a step-up for \(named.rawValue); the declared action is \(action.rawValue)") }
            }
            let declared = ActionPolicy.of(action).stepUps
            if declared != kinds {
                problems.append("the table asks for \(stepUp); \(action.rawValue)'s policy takes \(declared.map(\.rawValue).sorted())")
            }
        }
        if let action = policy.action, stepUps.isEmpty, !row.outcomes.contains(.full) {
            problems.append("declares \(action.rawValue), whose step-up the table never asks for")
        }
        return problems
    }

    static let personnummer = ["14889235307", "14489237688"]

    /// Whether `reply` is what the table expects: nil when it is, else what is wrong.
    /// - Parameters:
    ///   - organisationPage: an organisation's administration page, whose 404 is a stranger's refusal.
    ///   - api: the app's API, whose step-up refusals challenge for the step-up (RFC 9470).
    static func check(_ reply: LiveBroker.Reply, expected: ExpectedAccess.Outcome, organisationPage: Bool, api: Bool = false) -> String? {
        let status = reply.status
        switch expected {
        case .ok, .masked, .full:
            if [401, 403].contains(status) || status >= 500 { return "\(status) where the table lets it through: \(reply.body.prefix(160))" }
            if organisationPage, status == 404 { return "404 where the table lets it through" }
            let shown = personnummer.filter { reply.body.contains($0) }
            if expected == .masked, !shown.isEmpty { return "a number in full where the table says masked" }
            if expected == .full, shown.count != personnummer.count { return "masked where the table says the numbers in full" }
        case .noSession:
            if status != 401 { return "\(status), not 401 without a session" }
        case .notOperator:
            if status != 401 { return "\(status), not the operator's 401" }
        case .notMemberSystem:
            if status != 401 || reply.string("scimType") != nil || reply.json["schemas"] as? [String] != ["urn:ietf:params:scim:api:messages:2.0:Error"] {
                return "\(status), not SCIM's 401: \(reply.body.prefix(160))"
            }
        case .noRole:
            if status != 403 { return "\(status), not 403 without the role" }
        case .notTheirs:
            if status != 404 { return "\(status), not 404 for another organisation's page" }
        case .stepUp(let stepUp):
            // Enrolling a device answers as it always has: 403 `login_required` (the app then offers BankID or Vipps).
            if stepUp == .enrolmentLogin {
                if status != 403 || reply.string("error") != "login_required" { return "\(status), not 403 login_required without a fresh login" }
                return nil
            }
            if status != 401 { return "\(status), not 401 without \(stepUp)" }
            if reply.headers["content-type"]?.hasPrefix("application/json") == true {
                if reply.string("error") != "insufficient_user_authentication" {
                    return "401 \(reply.string("error") ?? "?"), not insufficient_user_authentication"
                }
                // RFC 9470: the API's challenge says which step-up: the action's own, or a fresh login (`max_age`).
                if api {
                    let challenge = reply.headers["www-authenticate"] ?? ""
                    let asks = switch stepUp {
                    case .deviceKeyOrPassword(let action): #"step_up_action="\#(action.rawValue)""#
                    case .electronicIDOrPasskey, .electronicID, .enrolmentLogin: "max_age="
                    }
                    if !challenge.contains(asks) { return "401 challenging \(challenge), not for \(stepUp)" }
                }
            }
        case .anyone:
            if status >= 500 { return "\(status)" }
        }
        return nil
    }

    /// None; a password session and its password step-up; a fresh BankID session; a device-unlock
    /// session and its two step-ups; a coordinator; another organisation's administrator; a DPoP-bound token without its proof.
    /// The names are ``ExpectedAccess/apiCallers``.
    static func apiCallers(_ broker: LiveBroker) async throws -> [APICaller] {
        // Issue 58: her record carries her number, so her account is made by BankID; then the password.
        _ = try await broker.bankIDLogin("ingrid")
        _ = try await PortvaktApplication.setPassword(
            configuration: broker.configuration, logger: TestDatabase.logger, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password
        )
        let login = AppLogin()
        let flow = try await PasswordLoginTests.form(login, at: broker)
        let submitted = try await PasswordLoginTests.submit(flow, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password, at: broker)
        let code = try #require(AppCallback(location: submitted.location).code)
        let password = try #require(try await login.redeem(code, at: broker).string("access_token"))
        let passwordStepUp = try #require(try await broker.api(
            .POST, "/v1/step-up/password", token: password, json: ["action": "contacts.read", "password": PasswordLoginTests.password]
        ).string("access_token"))
        let bankID = try await broker.bankIDLogin("ingrid").access
        let device = try await broker.registerDevice(TestDevice(), token: bankID)
        let unlocked = try #require(try await broker.unlock(device).string("access_token"))
        let contacts = try await broker.stepUp(device, action: .contactsRead, token: unlocked)
        let expenses = try await broker.stepUp(device, action: .expensesSubmit, token: unlocked)
        let ola = try await broker.bankIDLogin("ola").access
        let emma = try await broker.bankIDLogin("emma").access
        let key = SenderConstraintTests.ProofKey(broker)
        let bound = try #require(try await SenderConstraintTests.login(broker, key: key, user: "ingrid")["access_token"] as? String)
        func bearer(_ token: String) -> [(String, String)] { [("Authorization", "Bearer \(token)")] }
        return [
            APICaller(name: "nobody", headers: []),
            APICaller(name: "Ingrid (password)", headers: bearer(password)),
            APICaller(name: "Ingrid (password step-up contacts.read)", headers: bearer(passwordStepUp)),
            APICaller(name: "Ingrid (BankID now)", headers: bearer(bankID)),
            APICaller(name: "Ingrid (device unlock)", headers: bearer(unlocked)),
            APICaller(name: "Ingrid (device step-up contacts.read)", headers: bearer(contacts)),
            APICaller(name: "Ingrid (device step-up expenses.submit)", headers: bearer(expenses)),
            APICaller(name: "Ola (NHF coordinator)", headers: bearer(ola)),
            APICaller(name: "Emma (HLF administrator)", headers: bearer(emma)),
            APICaller(name: "Ingrid's DPoP-bound token without its proof", headers: [("Authorization", "DPoP \(bound)")]),
            APICaller(name: "Ingrid's DPoP-bound token as Bearer", headers: bearer(bound)),
        ]
    }

    /// No cookie; Ingrid after a password sign-in; Ingrid after BankID; Ingrid after a passkey; Ola (coordinator); Lars
    /// (Blindeforbundet's administrator); and last Kari, who may end her own sessions. The names are
    /// ``ExpectedAccess/portalCallers`` and, for the sessions, ``ExpectedAccess/ownSessionCallers``.
    static func portalCallers(_ broker: LiveBroker) async throws -> [PortalCaller] {
        let password = try await AdminPortalTests.signInWithPassword(broker, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password)
        // Ingrid adds a passkey after BankID, then signs in with it alone.
        let registered = try await PasskeyTests.register(broker, cookie: try await PortalTests.signIn(broker, person: "ingrid", method: "bankid").cookie)
        let passkey = try PasskeyTests.cookie(try await PasskeyTests.portalSignIn(broker, holder: try #require(registered.holder), counter: 1))
        return [
            PortalCaller(name: "no cookie", cookie: nil),
            PortalCaller(name: "Ingrid (password)", cookie: password),
            PortalCaller(name: "Ingrid (BankID now)", cookie: try await PortalTests.signIn(broker, person: "ingrid", method: "bankid").cookie),
            PortalCaller(name: "Ingrid (passkey now)", cookie: passkey),
            PortalCaller(name: "Ola (NHF coordinator)", cookie: try await PortalTests.signIn(broker, person: "ola", method: "bankid").cookie),
            PortalCaller(name: "Lars (Blindeforbundet administrator)", cookie: try await PortalTests.signIn(broker, person: "lars", method: "bankid").cookie),
            PortalCaller(name: "Kari (peer mentor)", cookie: try await PortalTests.signIn(broker, person: "kari").cookie),
        ]
    }

    /// The route's template with each `{parameter}` replaced by the value for the segment before it.
    static func fill(_ template: String, values: [String: String]) -> String {
        var previous = ""
        return "/" + template.split(separator: "/").map { segment -> String in
            defer { previous = String(segment) }
            guard segment.hasPrefix("{") else { return String(segment) }
            let name = String(segment.dropFirst().dropLast())
            return values[name == "id" ? previous : name] ?? values[previous] ?? "x"
        }.joined(separator: "/")
    }

    static func query(for template: String, kariID: String) -> String {
        switch template {
        case "/admin/{slug}/merge/done": "?kept=\(kariID)"
        case "/admin/{slug}/merge/preview": "?keep=\(kariID)&remove=\(kariID)"
        default: ""
        }
    }

    /// One key for every enrolment the matrix makes: the first is registered, the rest are 409s.
    static let matrixDeviceKey = TestDevice().publicJWK

    /// A body that passes the policy's checks and is refused after them (or harmless).
    static func jsonBody(for route: String) -> (contentType: String, body: Data)? {
        guard route.hasPrefix("POST") else { return nil }
        let body: [String: Any] = switch route {
        case "POST /v1/organisations/{slug}/users/merge": ["keep": "same", "remove": "same"]
        case "POST /v1/organisations/{slug}/member-sync/{id}/resolve": ["keep": "neither"]
        case "POST /v1/devices": ["name": "Matrix phone", "platform": "ios", "biometric_kind": "face", "public_key": matrixDeviceKey]
        default: [:]
        }
        return ("application/json", (try? JSONSerialization.data(withJSONObject: body)) ?? Data())
    }
}
