import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Step-up before sensitive data (S11) and the app's API with its organisation rules, over HTTP.
@Suite("Step-up and the protected API")
struct StepUpAndAPITests {
    /// Ola (NHF coordinator) adds a contact for Magnus (NHF peer mentor, HLF coordinator).
    private static func contactForMagnus(_ broker: LiveBroker) async throws -> (ola: String, magnus: String, magnusID: String, contact: String) {
        let ola = try await broker.bankIDLogin("ola").access
        let magnus = try await broker.bankIDLogin("magnus").access
        let magnusID = try await broker.userID(token: magnus)
        let created = try await broker.api(.POST, "/v1/contacts", token: ola, json: [
            "organisation": "nhf", "display_name": "Anne", "assigned_to": magnusID,
            "details": ["phone": "+4790000999", "address": "Storgata 1, 0155 Oslo", "note": "Uses a wheelchair; ring twice"],
        ])
        #expect(created.status == 201, "\(created.body)")
        #expect(!created.body.contains("Storgata"), "creation does not echo the details")
        return (ola, magnus, magnusID, try #require(created.string("id")))
    }

    @Test("S11.1/S11.2: step-up, then the contact's details; without step-up a 401 insufficient_user_authentication; after expiry a 401 again", arguments: TestDatabase.kinds)
    func stepUpReadsContact(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let (_, magnus, _, contact) = try await Self.contactForMagnus(broker)

            let listed = try await broker.api(.GET, "/v1/contacts?organisation=nhf", token: magnus)
            #expect(listed.status == 200)
            #expect(listed.body.contains("Anne") && !listed.body.contains("Storgata"), "lists show names, never details")

            let without = try await broker.api(.GET, "/v1/contacts/\(contact)", token: magnus)
            #expect(without.status == 401)
            #expect(without.string("error") == "insufficient_user_authentication")
            #expect(without.string("message_id") == "step_up_required")
            #expect(without.headers["www-authenticate"]?.contains(#"error="insufficient_user_authentication""#) == true)
            #expect(!without.body.contains("Storgata"))

            let device = try await broker.registerDevice(TestDevice(), token: magnus)
            let elevated = try await broker.stepUp(device, action: .contactsRead, token: magnus)
            let claims = LiveBroker.claims(elevated)
            #expect(claims["step_up"] as? String == "contacts.read")
            #expect(claims["amr"] as? [String] == ["hwk", "face"])
            #expect((claims["exp"] as? Int ?? 0) - (claims["iat"] as? Int ?? 0) == 120)

            let read = try await broker.api(.GET, "/v1/contacts/\(contact)", token: elevated)
            #expect(read.status == 200, "\(read.body)")
            #expect((read.json["details"] as? [String: Any])?["address"] as? String == "Storgata 1, 0155 Oslo")
            let audit = try await broker.withStore { store in try await store.auditEvents(subjectType: "contact", subjectID: contact) }
            #expect(audit.map(\.action) == ["contact.details_read"])

            // A step-up for one action does not open another.
            let expense = try await broker.api(.POST, "/v1/expenses", token: elevated, json: ["organisation": "nhf", "amount_ore": 12000, "description": "Bus"],
                                               headers: [("Idempotency-Key", "e1")])
            #expect(expense.status == 401)
            #expect(expense.string("error") == "insufficient_user_authentication")

            broker.clock.advance(by: 121)
            let expired = try await broker.api(.GET, "/v1/contacts/\(contact)", token: elevated)
            #expect(expired.status == 401)
            #expect(expired.string("error") == "insufficient_user_authentication", "an expired step-up asks for biometrics again, not a refresh")
            #expect(!expired.body.contains("Storgata"))

            let stored = try await broker.withStore { store in try await store.contact(id: contact) }
            #expect(!String(decoding: try #require(stored).details.combined, as: UTF8.self).contains("Storgata"), "details are sealed at rest")
            #expect(!broker.logs.text.contains("Storgata"))
        }
    }

    @Test("S11.4: an expense claim needs a step-up for expenses.submit, and is submitted once per Idempotency-Key")
    func expenseNeedsStepUp() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = try await broker.bankIDLogin("magnus")
            let body: [String: Any] = ["organisation": "nhf", "amount_ore": 34950, "description": "Taxi to the activity centre"]
            let plain = try await broker.api(.POST, "/v1/expenses", token: login.access, json: body, headers: [("Idempotency-Key", "claim-1")])
            #expect(plain.status == 401)
            #expect(plain.string("message_id") == "step_up_required")

            let device = try await broker.registerDevice(TestDevice(), token: login.access)
            let elevated = try await broker.stepUp(device, action: .expensesSubmit, token: login.access)
            let first = try await broker.api(.POST, "/v1/expenses", token: elevated, json: body, headers: [("Idempotency-Key", "claim-1")])
            #expect(first.status == 201, "\(first.body)")
            let again = try await broker.api(.POST, "/v1/expenses", token: elevated, json: body, headers: [("Idempotency-Key", "claim-1")])
            #expect(again.string("id") == first.string("id"))
            #expect(again.headers["idempotent-replayed"] == "true")
            let listed = try await broker.api(.GET, "/v1/expenses?organisation=nhf", token: login.access)
            #expect((listed.json["expenses"] as? [Any])?.count == 1)
            let bad = try await broker.api(.POST, "/v1/expenses", token: elevated, json: ["organisation": "nhf", "amount_ore": -5, "description": "x"],
                                           headers: [("Idempotency-Key", "claim-2")])
            #expect(bad.status == 400)
        }
    }

    @Test("Concurrent replays of one activity create exactly one row; the same key with another body is a 422", arguments: TestDatabase.kinds)
    func idempotentActivities(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let token = try await broker.bankIDLogin("magnus").access
            let body: [String: Any] = ["organisation": "nhf", "kind": "visit", "occurred_at": "2026-11-20T10:00:00Z", "duration_minutes": 45, "note": "Walk"]
            let bytes = try JSONSerialization.data(withJSONObject: body)
            let replies = try await withThrowingTaskGroup(of: LiveBroker.Reply.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        try await broker.send("/v1/activities", method: .POST, raw: ("application/json", bytes), headers: [
                            ("Authorization", "Bearer \(token)"), ("Idempotency-Key", "offline-7f3a"),
                        ])
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == 201 }, "\(replies.map(\.status))")
            #expect(Set(replies.compactMap { $0.string("id") }).count == 1, "every replay returns the first result")
            #expect(replies.filter { $0.headers["idempotent-replayed"] == "true" }.count == 11)
            let userID = try await broker.userID(token: token)
            #expect(try await broker.withStore { try await $0.activityCount(userID: userID) } == 1)

            var changed = body
            changed["duration_minutes"] = 50
            let reused = try await broker.api(.POST, "/v1/activities", token: token, json: changed, headers: [("Idempotency-Key", "offline-7f3a")])
            #expect(reused.status == 422)
            #expect(reused.string("error") == "idempotency_key_reused")

            let noKey = try await broker.api(.POST, "/v1/activities", token: token, json: body)
            #expect(noKey.status == 400)
            for invalid in [["duration_minutes": 0], ["occurred_at": "yesterday"], ["kind": ""], ["organisation": "hlf-x"]] as [[String: Any]] {
                let reply = try await broker.api(.POST, "/v1/activities", token: token, json: body.merging(invalid) { $1 }, headers: [("Idempotency-Key", UUID().uuidString)])
                #expect([400, 403].contains(reply.status), "\(invalid) answered \(reply.status)")
            }
            #expect(try await broker.withStore { try await $0.activityCount(userID: userID) } == 1)
        }
    }

    @Test("Organisation isolation: peer mentors see their own rows, coordinators their organisation's, nobody another organisation's")
    func organisationIsolation() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let (ola, magnus, magnusID, contact) = try await Self.contactForMagnus(broker)
            let jonas = try await broker.bankIDLogin("jonas").access  // HLF coordinator
            let ingrid = try await broker.bankIDLogin("ingrid").access  // NHF administrator

            func log(_ token: String, _ organisation: String, _ key: String) async throws -> Int {
                try await broker.api(.POST, "/v1/activities", token: token, json: [
                    "organisation": organisation, "kind": "call", "occurred_at": "2026-11-21T08:00:00Z", "duration_minutes": 15,
                ], headers: [("Idempotency-Key", key)]).status
            }
            #expect(try await log(magnus, "nhf", "m-nhf") == 201)
            #expect(try await log(magnus, "hlf", "m-hlf") == 201)
            #expect(try await log(ola, "nhf", "o-nhf") == 201)
            #expect(try await log(jonas, "hlf", "j-hlf") == 201)
            #expect(try await log(jonas, "nhf", "j-nhf") == 403, "no writing into another organisation")

            func count(_ token: String, _ query: String) async throws -> Int? {
                let reply = try await broker.api(.GET, "/v1/activities\(query)", token: token)
                return reply.status == 200 ? (reply.json["activities"] as? [Any])?.count : nil
            }
            #expect(try await count(magnus, "?organisation=nhf") == 1, "a peer mentor sees only their own")
            #expect(try await count(magnus, "?organisation=hlf") == 2, "as HLF coordinator, all of HLF")
            #expect(try await count(ola, "?organisation=nhf") == 2)
            #expect(try await count(ingrid, "?organisation=nhf") == 2)
            #expect(try await count(ola, "?organisation=hlf") == nil)
            let crossList = try await broker.api(.GET, "/v1/activities?organisation=hlf", token: ola)
            #expect(crossList.status == 403)
            #expect(crossList.string("message_id") == "not_allowed")
            #expect(try await count(jonas, "") == 2, "without a filter, only the caller's organisations")

            // Another organisation's contact stays hidden even with a valid step-up.
            let jonasLogin = try await broker.bankIDLogin("jonas")
            let device = try await broker.registerDevice(TestDevice(), token: jonasLogin.access)
            let elevated = try await broker.stepUp(device, action: .contactsRead, token: jonasLogin.access)
            #expect(try await broker.api(.GET, "/v1/contacts/\(contact)", token: elevated).status == 404)
            #expect(try await broker.api(.GET, "/v1/contacts?organisation=nhf", token: jonas).status == 403)

            // A peer mentor cannot add contacts; a coordinator cannot assign to another organisation's member.
            let byPeer = try await broker.api(.POST, "/v1/contacts", token: magnus, json: ["organisation": "nhf", "display_name": "X", "details": [:] as [String: String]])
            #expect(byPeer.status == 403)
            let jonasID = try await broker.userID(token: jonas)
            let crossAssign = try await broker.api(.POST, "/v1/contacts", token: ola, json: [
                "organisation": "nhf", "display_name": "Y", "assigned_to": jonasID, "details": [:] as [String: String],
            ])
            #expect(crossAssign.status == 400)

            // Members: coordinators and administrators of the organisation only; devices revoked by an administrator.
            let members = try await broker.api(.GET, "/v1/organisations/nhf/members", token: ola)
            #expect(members.status == 200)
            #expect(members.body.contains(magnusID) && !members.body.contains("05878330724"), "user ids, never personnummer")
            #expect(try await broker.api(.GET, "/v1/organisations/nhf/members", token: magnus).status == 403)
            #expect(try await broker.api(.GET, "/v1/organisations/hlf/members", token: ola).status == 403)

            let magnusLogin = try await broker.bankIDLogin("magnus")
            let magnusDevice = try await broker.registerDevice(TestDevice(), token: magnusLogin.access)
            #expect(try await broker.api(.DELETE, "/v1/organisations/nhf/members/\(magnusID)/devices", token: ola).status == 403, "coordinators do not")
            #expect(try await broker.api(.DELETE, "/v1/organisations/nhf/members/\(jonasID)/devices", token: ingrid).status == 404, "not a member here")
            // Issue 58: Magnus is HLF's coordinator too, where his phone unlocks as well: he removes it himself.
            let elsewhere = try await broker.api(.DELETE, "/v1/organisations/nhf/members/\(magnusID)/devices", token: ingrid)
            #expect(elsewhere.status == 409 && elsewhere.string("error") == "conflict" && elsewhere.body.contains("My account"), "\(elsewhere.body)")
            #expect(try await broker.challenge(magnusDevice.id, purpose: .unlock).status == 201, "his phone still unlocks")
            let kari = try #require(try await broker.tokens(provider: "vipps", user: "kari")["access_token"] as? String)
            let kariID = try await broker.userID(token: kari)
            let kariDevice = try await broker.registerDevice(TestDevice(), token: kari)
            let revoked = try await broker.api(.DELETE, "/v1/organisations/nhf/members/\(kariID)/devices", token: ingrid)
            #expect(revoked.status == 200)
            #expect(revoked.json["revoked"] as? Int == 1)
            #expect(try await broker.challenge(kariDevice.id, purpose: .unlock).status == 404)

            // /v1/me: the home screen follows the highest role.
            #expect(try await broker.api(.GET, "/v1/me", token: ingrid).string("home_screen") == "organisation_admin")
            #expect(try await broker.api(.GET, "/v1/me", token: magnus).string("home_screen") == "coordinator_overview")
            #expect(try await broker.api(.GET, "/v1/me", token: nil).status == 401)
            #expect(try await broker.api(.GET, "/v1/me", token: "eyJ.bad.token").status == 401)
        }
    }
}
