import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// S11.3: when biometrics fail or the phone has none, the password entered again is the step-up
/// for what its policy allows (contact details, expense claims), never for what only BankID or
/// Vipps may open; tries share the login form's throttle, counted before bcrypt runs.
@Suite("Password step-up (S11.3)")
struct PasswordStepUpTests {
    static let password = PasswordLoginTests.password

    /// Magnus, signed in with BankID, with a password set and a contact Ola added for him.
    private static func magnus(_ broker: LiveBroker) async throws -> (access: String, contact: String) {
        // Issue 58: his records carry his number, so his account is made by BankID; then the password.
        let magnus = try await broker.bankIDLogin("magnus").access
        _ = try await PortvaktApplication.setPassword(
            configuration: broker.configuration, logger: TestDatabase.logger, email: "magnus@sandbox.portvakt.test", password: password
        )
        let ola = try await broker.bankIDLogin("ola").access
        let created = try await broker.api(.POST, "/v1/contacts", token: ola, json: [
            "organisation": "nhf", "display_name": "Anne", "assigned_to": try await broker.userID(token: magnus),
            "details": ["phone": "+4790000999", "address": "Storgata 1, 0155 Oslo"],
        ])
        #expect(created.status == 201, "\(created.body)")
        return (magnus, try #require(created.string("id")))
    }

    private static func stepUp(_ broker: LiveBroker, _ action: String, password: String, token: String) async throws -> LiveBroker.Reply {
        try await broker.api(.POST, "/v1/step-up/password", token: token, json: ["action": action, "password": password])
    }

    @Test("S11.3: the password entered again opens the contact's details with a token that says pwd; a wrong one is refused and opens nothing", arguments: TestDatabase.kinds)
    func S11_3_passwordOpensContactDetails(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let (magnus, contact) = try await Self.magnus(broker)
            let challenge = try await broker.api(.GET, "/v1/contacts/\(contact)", token: magnus)
            #expect(challenge.status == 401)
            #expect(challenge.headers["www-authenticate"]?.contains("urn:portvakt:acr:password-step-up") == true, "the challenge names the password step-up too")

            let wrong = try await Self.stepUp(broker, "contacts.read", password: "not the password", token: magnus)
            #expect(wrong.status == 400)
            #expect(wrong.string("error") == "access_denied" && wrong.string("message_id") == "wrong_password", "not invalid_grant: the session goes on")
            #expect(wrong.string("access_token") == nil)

            let confirmed = try await Self.stepUp(broker, "contacts.read", password: Self.password, token: magnus)
            #expect(confirmed.status == 200, "\(confirmed.body)")
            let elevated = try #require(confirmed.string("access_token"))
            let claims = LiveBroker.claims(elevated)
            #expect(claims["step_up"] as? String == "contacts.read")
            #expect(claims["amr"] as? [String] == ["pwd"])
            #expect(claims["acr"] as? String == "urn:portvakt:acr:password-step-up")
            #expect((claims["exp"] as? Int ?? 0) - (claims["iat"] as? Int ?? 0) == 120)

            let read = try await broker.api(.GET, "/v1/contacts/\(contact)", token: elevated)
            #expect(read.status == 200, "\(read.body)")
            #expect((read.json["details"] as? [String: Any])?["address"] as? String == "Storgata 1, 0155 Oslo")
            let expense = try await broker.api(.POST, "/v1/expenses", token: elevated, json: ["organisation": "nhf", "amount_ore": 100, "description": "Bus"],
                                               headers: [("Idempotency-Key", "pw-1")])
            #expect(expense.status == 401, "a step-up for one action does not open another")

            let userID = try await broker.userID(token: magnus)
            let events = try await broker.withStore { store in try await store.auditEvents(subjectType: "user", subjectID: userID) }
            #expect(events.filter { $0.action == "user.password_step_up" }.map(\.outcome).sorted() == ["failure", "success"], "the wrong try is the member's own event")
            #expect(!broker.logs.text.contains(Self.password) && !broker.logs.text.contains("not the password"))
        }
    }

    @Test("S11.3: a password never opens what only BankID or Vipps may; an account without a password is told so; an unknown action is a 400")
    func S11_3_whatThePasswordCannotOpen() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let (magnus, _) = try await Self.magnus(broker)
            let number = try await Self.stepUp(broker, "personnummer.read", password: Self.password, token: magnus)
            #expect(number.status == 401)
            #expect(number.string("error") == "insufficient_user_authentication" && number.string("message_id") == "fresh_login_required")

            let ola = try await broker.bankIDLogin("ola").access
            let none = try await Self.stepUp(broker, "contacts.read", password: Self.password, token: ola)
            #expect(none.status == 400 && none.string("message_id") == "no_password_set")

            #expect(try await Self.stepUp(broker, "accounts.merge", password: Self.password, token: magnus).status == 400)
            #expect(try await Self.stepUp(broker, "contacts.read", password: Self.password, token: "not-a-token").status == 401)
        }
    }

    @Test("S11.3, review II item 4: parallel wrong passwords at the step-up are counted before bcrypt and share the login form's budget", arguments: TestDatabase.kinds)
    func S11_3_parallelGuessesAreCountedFirst(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let (magnus, _) = try await Self.magnus(broker)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<12 {
                    group.addTask { try await Self.stepUp(broker, "expenses.submit", password: "guess \(index)", token: magnus).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 400 }.count == 5, "only the five free failures were judged: \(statuses.sorted())")
            #expect(statuses.filter { $0 == 429 }.count == 7)
            #expect(try await Self.stepUp(broker, "expenses.submit", password: Self.password, token: magnus).status == 429, "the right password waits too")

            // The same account at the login form waits as well: one budget per account.
            let flow = try await PasswordLoginTests.form(AppLogin(), at: broker)
            let form = try await PasswordLoginTests.submit(flow, email: "magnus@sandbox.portvakt.test", password: Self.password, at: broker)
            #expect(form.status == 429)

            broker.clock.advance(by: 6)
            #expect(try await Self.stepUp(broker, "expenses.submit", password: Self.password, token: magnus).status == 200)
        }
    }
}
