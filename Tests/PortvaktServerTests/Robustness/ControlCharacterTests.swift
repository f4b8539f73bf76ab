import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Text with a NUL or another control character is refused where it enters, with a 400 that
/// names the field, on both databases alike (PostgreSQL would fail on a NUL in SQL).
@Suite("Control characters where text enters")
struct ControlCharacterTests {
    @Test("Unlock grant kid, password email, activity, contact, expense and list filters: 400 naming the field", arguments: TestDatabase.kinds)
    func refusedAndNamed(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let nulKID = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "kid": "dev\u{0}ice"]).base64URLEncoded()
            let unlock = try await broker.unlockGrant("\(nulKID).e30.c2ln")
            #expect(unlock.status == 400)
            #expect(unlock.string("error") == "invalid_grant")

            let flow = try await PasswordLoginTests.form(AppLogin(), at: broker)
            let password = try await PasswordLoginTests.submit(flow, email: "kari\u{0}@sandbox.portvakt.test", password: "irrelevant-password", at: broker)
            #expect(password.status == 400)
            #expect(password.body.contains("email"))

            let token = try await broker.bankIDLogin("ingrid").access
            let activity: [String: Any] = ["organisation": "nhf", "kind": "visit", "occurred_at": "2026-11-20T10:00:00Z", "duration_minutes": 45]
            for (field, value) in [("kind", "vi\u{0}sit"), ("note", "a\u{0}b"), ("kind", "two\nlines")] {
                let reply = try await broker.api(
                    .POST, "/v1/activities", token: token, json: activity.merging([field: value]) { $1 }, headers: [("Idempotency-Key", UUID().uuidString)]
                )
                #expect(reply.status == 400, "\(field): \(reply.body)")
                #expect(reply.string("error_description")?.contains("\"\(field)\"") == true, "\(reply.body)")
            }
            let multiline = try await broker.api(
                .POST, "/v1/activities", token: token, json: activity.merging(["note": "line one\nline two"]) { $1 }, headers: [("Idempotency-Key", UUID().uuidString)]
            )
            #expect(multiline.status == 201, "a note may have several lines: \(multiline.body)")

            let contact = try await broker.api(.POST, "/v1/contacts", token: token, json: ["organisation": "nhf", "display_name": "A\u{0}B", "details": [String: String]()])
            #expect(contact.status == 400 && contact.body.contains("display_name"), "\(contact.body)")
            let expense = try await broker.api(.POST, "/v1/expenses", token: token, json: ["organisation": "nhf", "amount_ore": 100, "description": "x\u{0}"])
            #expect([400, 401].contains(expense.status), "\(expense.body)")
            for path in ["/v1/organisations/nhf/member-sync?status=%00", "/v1/organisations/nhf/outbox?status=open%00"] {
                let reply = try await broker.api(.GET, path, token: token)
                #expect(reply.status == 400 && reply.body.contains("status"), "\(path): \(reply.status) \(reply.body)")
            }
        }
    }
}
