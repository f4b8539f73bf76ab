import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktStorage
import PortvaktTestSupport
import SQLKit
import Testing

/// Personnummer write-back after BankID and Vipps logins (S9; DESIGN.md "Member sync after
/// login"), over real HTTP with the sandbox's providers and member systems.
@Suite("Member sync: outcomes, outbox, admin review")
struct MemberSyncTests {
    @Test("S9.2/S9.3: an empty record is updated and delivered; the next login is confirmed with no second write", arguments: TestDatabase.kinds)
    func updatedThenConfirmed(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let admin = try await broker.bankIDLogin("ingrid").access
            #expect(try await broker.memberRecord("nhf", externalRef: "sandbox-kari")?.personnummer == nil)

            _ = try await broker.tokens(provider: "vipps", user: "kari")
            let record = try #require(try await broker.memberRecord("nhf", externalRef: "sandbox-kari"))
            #expect(record.personnummer != nil, "the empty record got the number")
            let first = try await broker.syncEntries("nhf", admin: admin).filter { $0["member_id"] as? String == record.id }
            #expect(first.map { $0["outcome"] as? String } == ["updated"])
            #expect(first.first?["source"] as? String == "vipps-login")
            #expect(first.first?["member_personnummer"] as? String == "124385*****", "masked in the log")
            #expect(try await broker.eventually { try await broker.memberSystemReceived("nhf").count == 1 }, "delivered to NHF's member system")
            #expect(try await broker.outbox("nhf").map(\.status) == [.delivered])

            _ = try await broker.tokens(provider: "vipps", user: "kari")
            let again = try #require(try await broker.memberRecord("nhf", externalRef: "sandbox-kari"))
            #expect(again.updatedAt == record.updatedAt, "confirmed: nothing written")
            let entries = try await broker.syncEntries("nhf", admin: admin).filter { $0["member_id"] as? String == record.id }
            #expect(entries.map { $0["outcome"] as? String } == ["updated", "confirmed"])
            #expect(try await broker.outbox("nhf").count == 1, "no second update for the member system")
            let audit = try await broker.withStore { try await $0.auditEvents(subjectType: "member", subjectID: record.id) }
            #expect(audit.map(\.action) == ["member.personnummer.updated", "member.personnummer.confirmed"])
            #expect(audit.last?.details["note"] == "confirmed, no change")
            #expect(audit.allSatisfy { $0.source == "vipps-login" })
        }
    }

    @Test("S9.4: a different number is never written over; the administrator sees it masked, in full after step-up, and resolves it")
    func conflict() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let before = try #require(try await broker.memberRecord("nhf", externalRef: "sandbox-sofie")?.personnummer)
            // Her record is found by phone only and holds another number: not linked (review III, item 1).
            for _ in 0..<2 {
                let (app, _) = try await broker.providerLogin(AppLogin(), provider: "vipps", user: "sofie")
                #expect(app.error == "access_denied" && app.messageID == "not_registered")
            }
            #expect(try await broker.memberRecord("nhf", externalRef: "sandbox-sofie")?.personnummer == before, "never overwritten")

            let ingrid = try await broker.bankIDLogin("ingrid")
            let open = try await broker.syncEntries("nhf", admin: ingrid.access, query: "?outcome=conflict&status=open")
            #expect(open.count == 1, "one open entry however often the login is refused")
            let record = try #require(try await broker.memberRecord("nhf", externalRef: "sandbox-sofie"))
            #expect(try await broker.withStore { try await $0.auditEvents(subjectType: "member", subjectID: record.id) }.filter { $0.action == "member.link.refused" }.count == 2)
            let body = try await broker.api(.GET, "/v1/organisations/nhf/member-sync?outcome=conflict", token: ingrid.access).body
            #expect(body.contains("144892*****") && body.contains("148892*****"))
            #expect(!body.contains("14489237688") && !body.contains("14889235307"), "no full number without step-up")

            let entry = try #require(open.last?["id"] as? String)
            // Ingrid's BankID login is moments old: the step-up revealing needs (ActionPolicy).
            let full = try await broker.api(.GET, "/v1/organisations/nhf/member-sync/\(entry)", token: ingrid.access)
            #expect(full.string("login_personnummer") == "14889235307")
            #expect(full.string("member_personnummer") == "14489237688")

            // Only administrators of the organisation.
            let ola = try await broker.bankIDLogin("ola").access
            #expect(try await broker.api(.GET, "/v1/organisations/nhf/member-sync", token: ola).status == 403)
            let emma = try await broker.bankIDLogin("emma").access
            #expect(try await broker.api(.GET, "/v1/organisations/nhf/member-sync", token: emma).status == 403)
            #expect(try await broker.api(.POST, "/v1/organisations/nhf/member-sync/\(entry)/resolve", token: ola, json: ["keep": "login"]).status == 403)
            #expect(try await broker.api(.POST, "/v1/organisations/nhf/member-sync/\(entry)/resolve", token: ingrid.access, json: ["keep": "both"]).status == 400)

            // First the administrator keeps the record's number; her next login is refused again.
            let kept = try await broker.api(.POST, "/v1/organisations/nhf/member-sync/\(entry)/resolve", token: ingrid.access, json: ["keep": "member"])
            #expect(kept.string("resolution") == "kept_member")
            #expect(try await broker.syncEntries("nhf", admin: ingrid.access, query: "?status=open").isEmpty)
            #expect(try await broker.api(.POST, "/v1/organisations/nhf/member-sync/\(entry)/resolve", token: ingrid.access, json: ["keep": "login"]).status == 409)
            _ = try await broker.providerLogin(AppLogin(), provider: "vipps", user: "sofie")
            let again = try #require(try await broker.syncEntries("nhf", admin: ingrid.access, query: "?outcome=conflict&status=open").first?["id"] as? String)

            let resolved = try await broker.api(.POST, "/v1/organisations/nhf/member-sync/\(again)/resolve", token: ingrid.access, json: ["keep": "login"])
            #expect(resolved.status == 200, "\(resolved.body)")
            #expect(resolved.string("resolution") == "took_login")
            #expect(resolved.string("member_personnummer") == "148892*****", "the record holds the login's number now")
            #expect(try await broker.eventually { try await broker.memberSystemReceived("nhf").count == 1 })
            #expect(try await broker.syncEntries("nhf", admin: ingrid.access, query: "?status=open").isEmpty)
            // The record holds her number now: her next login links by it.
            #expect(try await broker.tokens(provider: "vipps", user: "sofie")["access_token"] != nil)
        }
    }

    @Test("S9.5: without a personnummer the login succeeds, the outcome is absent, and the user is told once; an invalid number is refused")
    func absentAndInvalid() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            try await broker.setFaults(["nin_missing"], for: "vipps")
            let tokens = try await broker.tokens(provider: "vipps", user: "kari")
            let access = try #require(tokens["access_token"] as? String)
            let me = try await broker.api(.GET, "/v1/me?ui_locales=en", token: access)
            let notices = try #require(me.json["notices"] as? [[String: Any]])
            #expect(notices.first?["message_id"] as? String == "personnummer_not_retrieved")
            #expect((notices.first?["message"] as? String)?.contains("could not retrieve") == true)
            #expect((try await broker.api(.GET, "/v1/me", token: access).json["notices"] as? [Any])?.isEmpty == true, "told once")

            try await broker.setFaults(["nin_invalid"], for: "vipps")
            let second = try await broker.tokens(provider: "vipps", user: "kari")
            #expect(second["access_token"] != nil, "the login itself succeeds (found by phone)")
            #expect(try await broker.memberRecord("nhf", externalRef: "sandbox-kari")?.personnummer == nil, "an invalid number is never written")

            let admin = try await broker.bankIDLogin("ingrid").access
            let kari = try #require(try await broker.memberRecord("nhf", externalRef: "sandbox-kari"))
            let outcomes = try await broker.syncEntries("nhf", admin: admin).filter { $0["member_id"] as? String == kari.id }.map { $0["outcome"] as? String }
            #expect(outcomes == ["absent", "invalid"])
        }
    }

    @Test("Delivery: after an outage with retries, and a delivery whose answer was lost is applied once")
    func deliveryAfterOutage() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            // NHF's member system is down; Blindeforbundet's applies an update but the answer is lost.
            try await broker.setMemberSystemFault("nhf", "outage")
            try await broker.setMemberSystemFault("blindeforbundet", "ack_lost")
            _ = try await broker.tokens(provider: "vipps", user: "kari")
            _ = try await broker.tokens(provider: "vipps", user: "per")
            #expect(try await broker.eventually { try await broker.outbox("nhf").first.map { $0.attempts >= 1 } ?? false })
            #expect(try await broker.eventually { try await broker.outbox("blindeforbundet").first.map { $0.attempts >= 1 } ?? false })
            let waiting = try #require(try await broker.outbox("nhf").first)
            #expect(waiting.status == .pending)
            #expect(waiting.lastError?.contains("503") == true)
            #expect(try await broker.memberSystemReceived("nhf").isEmpty)

            try await broker.setMemberSystemFault("nhf", nil)
            try await broker.setMemberSystemFault("blindeforbundet", nil)
            broker.clock.advance(by: 11 * 60)  // past the longest backoff
            #expect(try await broker.eventually { try await broker.outbox("nhf").first?.status == .delivered })
            #expect(try await broker.memberSystemReceived("nhf").first?["deliveries"] as? Int == 1)

            #expect(try await broker.eventually { try await broker.outbox("blindeforbundet").first?.status == .delivered })
            let received = try await broker.memberSystemReceived("blindeforbundet")
            #expect(received.count == 1)
            #expect((received.first?["deliveries"] as? Int ?? 0) >= 2, "delivered again after the lost answer, applied once")
            #expect(received.first?["personnummer_masked"] as? String == "028291*****")
        }
    }

    @Test("An update stays dead after its last attempt, and administrators see it")
    func deadLetter() async throws {
        try await LiveBroker.run(.sqlite, settings: ["PORTVAKT_OUTBOX_MAX_ATTEMPTS": "2"]) { broker in
            try await broker.setMemberSystemFault("hlf", "outage")
            _ = try await broker.tokens(provider: "vipps", user: "nora")
            #expect(try await broker.eventually { try await broker.outbox("hlf").first?.attempts == 1 })
            broker.clock.advance(by: 11 * 60)
            #expect(try await broker.eventually { try await broker.outbox("hlf").first?.status == .dead })
            let emma = try await broker.bankIDOrderLogin("emma").access
            let dead = try await broker.api(.GET, "/v1/organisations/hlf/outbox?status=dead", token: emma)
            #expect((dead.json["messages"] as? [[String: Any]])?.first?["attempts"] as? Int == 2)
            #expect(!dead.body.contains("08459523813"))
        }
    }

    @Test("A server stopped between commit and delivery delivers after the restart, once", arguments: TestDatabase.kinds)
    func deliveredAfterRestart(kind: DatabaseKind) async throws {
        try await TestDatabase.withServerDatabase(kind) { databaseURL in
            let settings = ["PORTVAKT_DATA_DIR": FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-restart-\(UUID().uuidString)").path]
            try await LiveBroker.serve(databaseURL: databaseURL, settings: settings) { broker in
                try await broker.setMemberSystemFault("hlf", "outage")
                _ = try await broker.tokens(provider: "vipps", user: "nora")
                #expect(try await broker.outbox("hlf").map(\.status) == [.pending], "committed with the login")
            }
            try await LiveBroker.serve(databaseURL: databaseURL, settings: settings) { broker in
                broker.clock.advance(by: 11 * 60)
                #expect(try await broker.eventually { try await broker.outbox("hlf").first?.status == .delivered })
                // A second delivery would come after this one is marked: given time to show (no
                // event says that one did not happen).
                try await Task.sleep(for: .seconds(1))
                let received = try await broker.memberSystemReceived("hlf")
                #expect(received.count == 1)
                #expect(received.first?["deliveries"] as? Int == 1)
            }
        }
    }

    @Test("Two accounts of one person merge: provider accounts, roles and data move to the kept one")
    func merge() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            // A second account for Kari, as an email invitation made before her first Vipps login would leave.
            let kari = try await broker.tokens(provider: "vipps", user: "kari")
            let kariID = try await broker.userID(token: try #require(kari["access_token"] as? String))
            let duplicate = try await broker.withStore { store in
                let user = try await store.createUser(displayName: "Kari N.", email: "kari.duplicate@example.org")
                let nhf = try #require(try await store.organisation(slug: "nhf"))
                _ = try await store.addMembership(userID: user.id, organisationID: nhf.id, role: .peerMentor, memberRecordID: nil)
                return user.id
            }
            let ingrid = try await broker.bankIDLogin("ingrid").access
            let ola = try await broker.bankIDLogin("ola").access
            #expect(try await broker.api(.POST, "/v1/organisations/nhf/users/merge", token: ola, json: ["keep": kariID, "remove": duplicate]).status == 403)
            #expect(try await broker.api(.POST, "/v1/organisations/nhf/users/merge", token: ingrid, json: ["keep": kariID, "remove": kariID]).status == 400)
            let merged = try await broker.api(.POST, "/v1/organisations/nhf/users/merge", token: ingrid, json: ["keep": kariID, "remove": duplicate])
            #expect(merged.status == 200, "\(merged.body)")
            let (removed, kept) = try await broker.withStore { store in (try await store.user(id: duplicate), try await store.user(id: kariID)) }
            #expect(removed == nil)
            #expect(kept?.email == "kari@sandbox.portvakt.test", "the kept account keeps its own email")
            let audit = try await broker.withStore { try await $0.auditEvents(subjectType: "user", subjectID: kariID) }
            #expect(audit.map(\.action).contains("user.merged"))
            // Kari's next Vipps login still finds her account.
            let again = try await broker.tokens(provider: "vipps", user: "kari")
            #expect(try await broker.userID(token: try #require(again["access_token"] as? String)) == kariID)
        }
    }
}

/// An administrator's merge must never widen anyone's access (issue: cross-organisation takeover).
@Suite("Merging accounts as an administrator")
struct AdministratorMergeTests {
    @Test("Refused: into the admin's own account, an account in another organisation, without a fresh BankID/Vipps login; audited before/after", arguments: TestDatabase.kinds)
    func mergeNeverWidensAccess(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let kari = try await broker.tokens(provider: "vipps", user: "kari")
            let kariID = try await broker.userID(token: try #require(kari["access_token"] as? String))
            let ingrid = try await broker.bankIDLogin("ingrid").access
            let ingridID = try await broker.userID(token: ingrid)
            let (nhfOnly, alsoInHLF) = try await broker.withStore { store in
                let nhf = try #require(try await store.organisation(slug: "nhf"))
                let hlf = try #require(try await store.organisation(slug: "hlf"))
                let single = try await store.createUser(displayName: "Kari N.", email: "kari.duplicate@example.org")
                _ = try await store.addMembership(userID: single.id, organisationID: nhf.id, role: .peerMentor, memberRecordID: nil)
                let double = try await store.createUser(displayName: "Victim", email: "victim@example.org")
                _ = try await store.addMembership(userID: double.id, organisationID: nhf.id, role: .peerMentor, memberRecordID: nil)
                _ = try await store.addMembership(userID: double.id, organisationID: hlf.id, role: .orgAdmin, memberRecordID: nil)
                return (single.id, double.id)
            }
            func merge(_ keep: String, _ remove: String, token: String = ingrid) async throws -> LiveBroker.Reply {
                try await broker.api(.POST, "/v1/organisations/nhf/users/merge", token: token, json: ["keep": keep, "remove": remove])
            }
            let intoOwn = try await merge(ingridID, nhfOnly)
            #expect(intoOwn.status == 403 && intoOwn.string("error") == "merge_refused", "\(intoOwn.body)")
            let ownAway = try await merge(nhfOnly, ingridID)
            #expect(ownAway.status == 403)
            let crossOrganisation = try await merge(kariID, alsoInHLF)
            #expect(crossOrganisation.status == 403 && crossOrganisation.body.contains("another organisation"), "\(crossOrganisation.body)")
            let crossKept = try await merge(alsoInHLF, kariID)
            #expect(crossKept.status == 403)

            broker.clock.advance(by: 301)
            let stale = try await merge(kariID, nhfOnly)
            #expect(stale.status == 401 && stale.string("error") == "insufficient_user_authentication", "\(stale.body)")
            #expect(stale.string("message_id") == "fresh_login_required")
            #expect(stale.headers["www-authenticate"]?.contains(#"max_age="300""#) == true)
            #expect(try await broker.withStore { try await $0.user(id: nhfOnly) } != nil, "nothing changed")
            #expect(try await broker.withStore { try await $0.organisationRoles(userID: alsoInHLF).count } == 2)

            let fresh = try await broker.bankIDLogin("ingrid").access
            let merged = try await merge(kariID, nhfOnly, token: fresh)
            #expect(merged.status == 200, "\(merged.body)")
            let event = try await broker.withStore { try await $0.auditEvents(subjectType: "user", subjectID: kariID) }.first { $0.action == "user.merged" }
            #expect(event?.details["kept_before"]?.contains("providers=vipps") == true, "\(String(describing: event?.details))")
            #expect(event?.details["removed_before"]?.contains("nhf:peer_mentor") == true)
            #expect(event?.details["kept_after"] != nil)
        }
    }
}

/// What a receiver must refuse, shown on the sandbox's member system: unsigned, wrongly signed,
/// stale or unkeyed updates never reach the member record.
@Suite("Member system receiver")
struct MemberSystemReceiverTests {
    @Test("Unsigned, forged, stale and unkeyed updates are refused; nothing is applied")
    func refusals() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let body = Data(#"{"event":"member.personnummer.set","member_ref":"sandbox-kari","personnummer":"12438510085"}"#.utf8)
            let now = Int(Date().timeIntervalSince1970)
            let forged = MemberUpdateSignature.sign(body: body, timestamp: now, idempotencyKey: "k1", secret: "not-the-secret-0123456789")
            for (label, headers, status) in [
                ("unsigned", [("Idempotency-Key", "k1")], 401),
                ("forged", [("Idempotency-Key", "k1"), ("Portvakt-Timestamp", "\(now)"), ("Portvakt-Signature", forged)], 401),
                ("stale", [("Idempotency-Key", "k1"), ("Portvakt-Timestamp", "\(now - 3600)"), ("Portvakt-Signature", forged)], 401),
                ("no timestamp", [("Idempotency-Key", "k1"), ("Portvakt-Signature", forged)], 401),
            ] as [(String, [(String, String)], Int)] {
                let reply = try await broker.send("/sandbox/members/nhf", method: .POST, raw: ("application/json", body), headers: headers)
                #expect(reply.status == status, "\(label): \(reply.status)")
            }
            #expect(try await broker.send("/sandbox/members/unknown", method: .POST, raw: ("application/json", body)).status == 404)
            #expect(try await broker.memberSystemReceived("nhf").isEmpty)
        }
    }
}
