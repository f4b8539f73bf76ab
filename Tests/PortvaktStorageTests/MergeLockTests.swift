import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import SQLKit
import Testing

/// Issue 58: the account merge locks what it reads. A disable or an erasure of the account a
/// merge removes, committed while the merge runs, must never be undone by it (its provider
/// accounts moved onto the kept account would open that one instead).
@Suite("Merges lock what they read")
struct MergeLockTests {
    enum Rival: String, CaseIterable, Sendable {
        case disable, erase
    }

    @Test("Issue 58: a merge racing a disable or an erasure of the removed account waits for it and then refuses; the removed account's BankID login stays off the kept account", arguments: TestDatabase.kinds, Rival.allCases)
    func mergeWaitsForTheRival(kind: DatabaseKind, rival: Rival) async throws {
        try await TestDatabase.withStore(kind) { store in
            let keep = try await store.createUser(displayName: "Kept")
            let remove = try await store.createUser(displayName: "Removed")
            _ = try await store.linkIdentity(userID: remove.id, provider: .bankid, subject: "removed-bankid")
            let (held, holding) = AsyncStream<Void>.makeStream()
            let (release, releasing) = AsyncStream<Void>.makeStream()
            // The rival holds its write uncommitted until the merge is seen waiting for it.
            async let rivalry: Void = store.driver.withTransaction { db in
                switch rival {
                case .disable:
                    try await db.update("users").set("disabled_at", to: Date().millisecondsSince1970).where("id", .equal, remove.id).run()
                case .erase:
                    try await db.delete(from: "identities").where("user_id", .equal, remove.id).run()
                    try await db.delete(from: "users").where("id", .equal, remove.id).run()
                }
                holding.yield()
                for await _ in release { break }
            }
            for await _ in held { break }
            async let merge: String? = {
                do {
                    try await store.mergeUsers(keep: keep.id, remove: remove.id, personnummer: nil, audit: AuditEvent(
                        occurredAt: Date(), action: .userMerged, outcome: "success", subjectType: "user", subjectID: keep.id, source: "test"
                    ))
                    return nil
                } catch let error as StoreError where error.isNotFound {
                    return "not found"
                } catch {
                    return "\(error)"
                }
            }()
            // PostgreSQL: the merge's backend waits on a row lock (pg_stat_activity), which takes no
            // sleep to know. SQLite: writers take turns, so the merge waits for the rival by
            // construction and there is nothing to watch.
            if kind == .postgres {
                #expect(try await Self.untilSomeBackendWaitsOnALock(store), "the merge never waited for the rival's row")
            }
            releasing.yield()
            try await rivalry
            #expect(await merge == "not found", "the merge refuses an account disabled or erased under it")
            let kept = try await store.user(provider: .bankid, subject: "removed-bankid")
            #expect(kept?.id != keep.id, "the removed account's login never opens the kept account")
            if rival == .disable {
                #expect(try await store.user(id: remove.id)?.disabledAt != nil, "the disable stands")
            }
        }
    }

    @Test("Issue 58 item 5: a merge moves each record's membership with it, two records of one role included; a role without a record moves once", arguments: TestDatabase.kinds)
    func mergeMovesEveryRecord(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let first = try await store.createMemberRecord(organisationID: nhf.id, NewMemberRecord(fullName: "Kari Nordmann", role: .peerMentor))
            let second = try await store.createMemberRecord(organisationID: nhf.id, NewMemberRecord(fullName: "Kari N.", role: .peerMentor))
            let keep = try await store.createUser(displayName: "Kari")
            let remove = try await store.createUser(displayName: "Kari N.")
            _ = try await store.addMembership(userID: keep.id, organisationID: nhf.id, role: .peerMentor, memberRecordID: first.id)
            _ = try await store.addMembership(userID: remove.id, organisationID: nhf.id, role: .peerMentor, memberRecordID: second.id)
            _ = try await store.addMembership(userID: keep.id, organisationID: nhf.id, role: .coordinator, memberRecordID: nil)
            _ = try await store.addMembership(userID: remove.id, organisationID: nhf.id, role: .coordinator, memberRecordID: nil)
            try await store.mergeUsers(keep: keep.id, remove: remove.id, personnummer: nil, confinedTo: nhf.id, audit: AuditEvent(
                occurredAt: Date(), action: .userMerged, outcome: "success", subjectType: "user", subjectID: keep.id, source: "test"
            ))
            let held = try await store.memberships(userID: keep.id)
            #expect(Set(held.compactMap(\.memberRecordId)) == [first.id, second.id], "both records are the kept account's")
            #expect(held.filter { $0.memberRecordId == nil }.map(\.role) == [.coordinator])
            #expect(try await store.user(id: remove.id) == nil)
            #expect(try await store.organisationRoles(userID: keep.id).map(\.roles) == [[.coordinator, .peerMentor]], "each role once")
        }
    }

    /// Polls pg_stat_activity (bounded: 10 s) until a backend of this database waits on a lock.
    static func untilSomeBackendWaitsOnALock(_ store: PortvaktStore) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let waiting = try await store.driver.withSession { db in
                try await db.raw("""
                    SELECT COUNT(*) AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                    """).first()?.decode(column: "waiting", as: Int.self) ?? 0
            }
            if waiting > 0 { return true }
            await Task.yield()
        }
        return false
    }
}
