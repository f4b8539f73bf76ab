import Foundation
import NIOHTTP1
import PortvaktCore
import PortvaktDomain
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// Review II, item 8: every route the router serves declares who may call it (``RoutePolicy``);
/// each is called by every kind of caller, and the answer is the one the declaration and the
/// ``ActionPolicy`` of its action promise, for the JSON API and the portal alike.
@Suite("Authorization matrix")
struct AuthorizationMatrixTests {
    /// An API caller: a name for the report, its headers, and what it holds.
    struct APICaller {
        let name: String
        let headers: [(String, String)]
        /// The roles in NHF; nil for no valid session at all.
        let nhfRoles: Set<Role>?
        /// A BankID or Vipps login of the last five minutes.
        var freshElectronicID = false
        /// The step-up the token carries, and how it was made.
        var stepUp: SensitiveAction?
        var stepUpKind: StepUpKind = .deviceKey
    }

    struct PortalCaller {
        let name: String
        let cookie: String?
        let nhfRoles: Set<Role>?
        var freshElectronicID = false
        /// A passkey sign-in of the last five minutes (S18.3).
        var freshPasskey = false
    }

    /// Routes that end the caller's own sessions: called last, by a throwaway caller.
    static let endingSessions = ["POST /account/sessions/{id}/end", "POST /account/sessions/end-others", "POST /portal/logout"]

    @Test("Every route declares its policy, and every kind of caller gets what the policy promises", arguments: TestDatabase.kinds)
    func matrix(kind: DatabaseKind) async throws {
        // Named localhost, so that passkeys work and a passkey's caller is in the matrix (S18.3).
        try await PasskeyTests.run(kind, settings: ["PORTVAKT_METRICS_TOKEN": "operator-metrics-token-for-the-matrix"]) { broker in
            let undeclared = broker.routes.filter { RoutePolicy.of($0) == nil }
            #expect(undeclared.isEmpty, "routes without a declared policy: \(undeclared)")
            let stale = RoutePolicy.declared.keys.filter { !broker.routes.contains($0) }
            #expect(stale.isEmpty, "declared routes the router no longer serves: \(stale.sorted())")

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
            var wrong: [String] = []
            var checked = 0
            let ordered = broker.routes.filter { !Self.endingSessions.contains($0) } + Self.endingSessions.filter(broker.routes.contains)
            for route in ordered {
                guard let policy = RoutePolicy.of(route) else { continue }
                let parts = route.split(separator: " ", maxSplits: 1).map(String.init)
                let path = Self.fill(parts[1], values: values) + Self.query(for: parts[1], kariID: kariID)
                let method = HTTPMethod(rawValue: parts[0])
                switch policy.caller {
                case .member, .role:
                    for caller in api {
                        let expected = Self.expected(policy, for: caller)
                        let reply = try await broker.send(path, method: method, raw: Self.jsonBody(for: route), headers: caller.headers + [("Accept", "application/json")])
                        checked += 1
                        if let problem = Self.check(reply, expected: expected, route: route, policy: policy, caller: caller.freshElectronicID) {
                            wrong.append("\(route) as \(caller.name): \(problem)")
                        }
                    }
                case .portalMember, .portalRole:
                    let callers = Self.endingSessions.contains(route) ? [portal[0], portal.last!] : Array(portal.dropLast())
                    for caller in callers {
                        let expected = Self.expected(policy, for: caller)
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
                        let opens = caller.freshElectronicID || (caller.freshPasskey && policy.action.map { ActionPolicy.of($0).stepUps.contains(.freshPasskey) } == true)
                        if let problem = Self.check(reply, expected: expected, route: route, policy: policy, caller: opens) {
                            wrong.append("\(route) as \(caller.name): \(problem)")
                        }
                    }
                case .operatorToken:
                    for caller in api {
                        let reply = try await broker.send(path, method: method, headers: caller.headers)
                        checked += 1
                        if reply.status != 401 { wrong.append("\(route) as \(caller.name): \(reply.status), not the operator's 401") }
                    }
                case .anonymous, .sandbox:
                    // No session is asked for; the protocol's own checks are the hostile-input suites'.
                    let reply = try await broker.send(path, method: method, headers: [("Accept", "application/json")])
                    checked += 1
                    if reply.status >= 500 { wrong.append("\(route) anonymously: \(reply.status)") }
                }
            }
            #expect(wrong.isEmpty, "\(wrong.count) of \(checked) answers broke the policy:\n\(wrong.joined(separator: "\n"))")
            #expect(checked > 350)
        }
    }

    /// What a caller gets: through, refused for want of a session (401), of a role (403), of a
    /// step-up (401 `insufficient_user_authentication`), or because the organisation is not
    /// theirs (the portal's 404).
    enum Expected: Equatable {
        case through, noSession, noRole, noStepUp, notTheirs
    }

    static func expected(_ policy: RoutePolicy, for caller: APICaller) -> Expected {
        guard let roles = caller.nhfRoles else { return .noSession }
        if case .role(let needed) = policy.caller, roles.isDisjoint(with: needed) { return .noRole }
        return stepUpMissing(policy.action, fresh: caller.freshElectronicID, stepUp: caller.stepUp, kind: caller.stepUpKind, masks: true) ? .noStepUp : .through
    }

    static func expected(_ policy: RoutePolicy, for caller: PortalCaller) -> Expected {
        guard let roles = caller.nhfRoles else { return .noSession }
        if case .portalRole(let needed) = policy.caller {
            if roles.isEmpty { return .notTheirs }
            if roles.isDisjoint(with: needed) { return .noRole }
        }
        return stepUpMissing(policy.action, fresh: caller.freshElectronicID, stepUp: nil, passkey: caller.freshPasskey) ? .noStepUp : .through
    }

    /// Whether the action's policy refuses the caller. The API's reveal does not refuse: it masks.
    static func stepUpMissing(
        _ action: SensitiveAction?, fresh: Bool, stepUp: SensitiveAction?, kind: StepUpKind = .deviceKey, masks: Bool = false, passkey: Bool = false
    ) -> Bool {
        guard let action, !(masks && action == .personnummerReveal) else { return false }
        let policy = ActionPolicy.of(action)
        let satisfied = (policy.stepUps.contains(.freshElectronicID) && fresh) || (policy.stepUps.contains(kind) && stepUp == action)
            || (policy.stepUps.contains(.freshPasskey) && passkey)
        return !satisfied
    }

    static func check(_ reply: LiveBroker.Reply, expected: Expected, route: String, policy: RoutePolicy, caller fresh: Bool) -> String? {
        let status = reply.status
        switch expected {
        case .through:
            if [401, 403].contains(status) || status >= 500 { return "\(status) where the policy lets it through: \(reply.body.prefix(160))" }
            if case .portalRole = policy.caller, status == 404 { return "404 where the policy lets it through" }
            // Revealing: full numbers only under the action's policy.
            if policy.action == .personnummerReveal {
                let full = reply.body.contains("14889235307")
                if full != fresh { return full ? "a number in full without a fresh BankID/Vipps login" : "masked after a fresh BankID/Vipps login" }
            }
        case .noSession:
            if status != 401 { return "\(status), not 401 without a session" }
        case .noRole:
            if status != 403 { return "\(status), not 403 without the role" }
        case .noStepUp:
            // Enrolling a device answers as it always has: 403 `login_required` (the app then offers BankID or Vipps).
            if policy.action == .deviceEnrol {
                if status != 403 || reply.string("error") != "login_required" { return "\(status), not 403 login_required without a fresh BankID/Vipps login" }
                return nil
            }
            if status != 401 { return "\(status), not 401 without the step-up" }
            if reply.headers["content-type"]?.hasPrefix("application/json") == true, reply.string("error") != "insufficient_user_authentication" {
                return "401 \(reply.string("error") ?? "?"), not insufficient_user_authentication"
            }
        case .notTheirs:
            if status != 404 { return "\(status), not 404 for another organisation's page" }
        }
        return nil
    }

    /// None; a password session and its password step-up; a fresh BankID session; a device-unlock
    /// session and its two step-ups; a coordinator; another organisation's administrator; a DPoP-bound token without its proof.
    static func apiCallers(_ broker: LiveBroker) async throws -> [APICaller] {
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
            APICaller(name: "nobody", headers: [], nhfRoles: nil),
            APICaller(name: "Ingrid (password)", headers: bearer(password), nhfRoles: [.orgAdmin]),
            APICaller(name: "Ingrid (password step-up contacts.read)", headers: bearer(passwordStepUp), nhfRoles: [.orgAdmin], stepUp: .contactsRead, stepUpKind: .freshPassword),
            APICaller(name: "Ingrid (BankID now)", headers: bearer(bankID), nhfRoles: [.orgAdmin], freshElectronicID: true),
            APICaller(name: "Ingrid (device unlock)", headers: bearer(unlocked), nhfRoles: [.orgAdmin]),
            APICaller(name: "Ingrid (device step-up contacts.read)", headers: bearer(contacts), nhfRoles: [.orgAdmin], stepUp: .contactsRead),
            APICaller(name: "Ingrid (device step-up expenses.submit)", headers: bearer(expenses), nhfRoles: [.orgAdmin], stepUp: .expensesSubmit),
            APICaller(name: "Ola (NHF coordinator)", headers: bearer(ola), nhfRoles: [.coordinator], freshElectronicID: true),
            APICaller(name: "Emma (HLF administrator)", headers: bearer(emma), nhfRoles: [], freshElectronicID: true),
            APICaller(name: "Ingrid's DPoP-bound token without its proof", headers: [("Authorization", "DPoP \(bound)")], nhfRoles: nil),
            APICaller(name: "Ingrid's DPoP-bound token as Bearer", headers: bearer(bound), nhfRoles: nil),
        ]
    }

    /// No cookie; Ingrid after a password sign-in; Ingrid after BankID; Ingrid after a passkey; Ola (coordinator); Lars
    /// (Blindeforbundet's administrator); and last Kari, who may end her own sessions.
    static func portalCallers(_ broker: LiveBroker) async throws -> [PortalCaller] {
        let password = try await AdminPortalTests.signInWithPassword(broker, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password)
        // Ingrid adds a passkey after BankID, then signs in with it alone.
        let registered = try await PasskeyTests.register(broker, cookie: try await PortalTests.signIn(broker, person: "ingrid", method: "bankid").cookie)
        let passkey = try PasskeyTests.cookie(try await PasskeyTests.portalSignIn(broker, holder: try #require(registered.holder), counter: 1))
        return [
            PortalCaller(name: "no cookie", cookie: nil, nhfRoles: nil),
            PortalCaller(name: "Ingrid (password)", cookie: password, nhfRoles: [.orgAdmin]),
            PortalCaller(name: "Ingrid (BankID now)", cookie: try await PortalTests.signIn(broker, person: "ingrid", method: "bankid").cookie, nhfRoles: [.orgAdmin], freshElectronicID: true),
            PortalCaller(name: "Ingrid (passkey now)", cookie: passkey, nhfRoles: [.orgAdmin], freshPasskey: true),
            PortalCaller(name: "Ola (NHF coordinator)", cookie: try await PortalTests.signIn(broker, person: "ola", method: "bankid").cookie, nhfRoles: [.coordinator], freshElectronicID: true),
            PortalCaller(name: "Lars (Blindeforbundet administrator)", cookie: try await PortalTests.signIn(broker, person: "lars", method: "bankid").cookie, nhfRoles: [], freshElectronicID: true),
            PortalCaller(name: "Kari (peer mentor)", cookie: try await PortalTests.signIn(broker, person: "kari").cookie, nhfRoles: [.peerMentor], freshElectronicID: true),
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
