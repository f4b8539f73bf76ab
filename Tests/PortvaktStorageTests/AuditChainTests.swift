import Crypto
import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import SQLKit
import Testing

/// The audit trail as a hash chain (issue 7, point 4): `verifyAuditChain` passes on an honest
/// trail and names the first event that was edited, removed or cut off; the table refuses
/// UPDATE and DELETE.
@Suite("Audit hash chain")
struct AuditChainTests {
    private static func event(_ number: Int) -> AuditEvent {
        AuditEvent(
            occurredAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(number)), action: .personnummerUpdated, outcome: "updated",
            subjectType: "member", subjectID: "m\(number)", source: "vipps-login", details: ["n": "\(number)"]
        )
    }

    /// Runs raw SQL with the append-only triggers out of the way, as someone with database access could.
    private static func tamper(_ store: PortvaktStore, _ sql: String) async throws {
        try await store.driver.withSession { db in
            if db.dialect.name == "sqlite" {
                try await db.raw("DROP TRIGGER IF EXISTS audit_events_no_update").run()
                try await db.raw("DROP TRIGGER IF EXISTS audit_events_no_delete").run()
            } else {
                try await db.raw("ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only").run()
            }
            try await db.raw(SQLQueryString(sql)).run()
        }
    }

    @Test("Review II item 9: the audit page's walk starts at the head the last intact walk reached; a change to that head is still seen; the full walk sees everything", arguments: TestDatabase.kinds)
    func walkSinceVerified(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            for number in 1...3 { try await store.append(Self.event(number)) }
            #expect(try await store.verifyAuditChain(sinceVerified: true).checked == 3)
            for number in 4...5 { try await store.append(Self.event(number)) }
            // An edit before the kept head is for the full walk (`audit verify`) to find; the page's walk starts after it.
            try await Self.tamper(store, "UPDATE audit_events SET outcome = 'edited' WHERE sequence = 2")
            let quick = try await store.verifyAuditChain(sinceVerified: true)
            #expect(quick.isIntact && quick.checked == 5)
            #expect(try await store.verifyAuditChain().firstBroken?.sequence == 2)
            // The kept head itself changed, its content or its hash: seen.
            try await Self.tamper(store, "UPDATE audit_events SET outcome = 'edited' WHERE sequence = 5")
            #expect(try await store.verifyAuditChain(sinceVerified: true).firstBroken?.sequence == 5)
            try await Self.tamper(store, "UPDATE audit_events SET hash = prev_hash WHERE sequence = 5")
            #expect(try await store.verifyAuditChain(sinceVerified: true).firstBroken?.sequence == 5)
        }
    }

    @Test("Concurrent appends form one unbroken chain", arguments: TestDatabase.kinds)
    func concurrentAppends(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for number in 1...20 { group.addTask { try await store.append(Self.event(number)) } }
                try await group.waitForAll()
            }
            let report = try await store.verifyAuditChain(pageSize: 7)
            #expect(report.isIntact, "\(String(describing: report.firstBroken))")
            #expect(report.checked == 20)
        }
    }

    @Test("Issue 24: events committed by two instances while both link them form one chain, each event once", arguments: TestDatabase.kinds)
    func twoInstancesLinking(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { first in
            // A second store on the same database has its own linker, as another instance would.
            let second = PortvaktStore(driver: first.driver, auditKeys: first.auditKeys)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for number in 1...120 {
                    group.addTask { try await (number.isMultiple(of: 2) ? first : second).append(Self.event(number)) }
                    if number.isMultiple(of: 10) {
                        group.addTask { try await first.linkPendingAuditEvents(batchSize: 7) }
                        group.addTask { try await second.linkPendingAuditEvents(batchSize: 7) }
                    }
                }
                try await group.waitForAll()
            }
            let report = try await first.verifyAuditChain(pageSize: 50)
            #expect(report.isIntact, "\(String(describing: report.firstBroken))")
            #expect(report.checked == 120)
            let linked = try await first.driver.withSession { db in
                try await db.select().column("subject_id").from("audit_events").where("sequence", .isNot, SQLLiteral.null).all()
                    .map { try $0.decode(column: "subject_id", as: String.self) }
            }
            #expect(Set(linked) == Set((1...120).map { "m\($0)" }) && linked.count == 120)
        }
    }

    @Test("An event written without the audit key is never linked, and verify names it", arguments: TestDatabase.kinds)
    func forgedUnlinkedEvent(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            try await store.append(Self.event(1))
            let forgedID = UUID().uuidString.lowercased()
            try await store.driver.withSession { db in
                try await db.insert(into: "audit_events")
                    .columns("id", "occurred_at", "action", "outcome", "details", "key_id", "seal")
                    .values(SQLBind(forgedID), SQLBind(Int64(1_800_000_000_500)), SQLBind("member.deleted"), SQLBind("success"), SQLBind("{}"),
                            SQLBind("test"), SQLBind(Data(repeating: 1, count: 32)))
                    .run()
            }
            try await store.append(Self.event(2))
            let report = try await store.verifyAuditChain()
            #expect(report.checked == 2)
            #expect(report.firstBroken?.eventID == forgedID)
            #expect(report.firstBroken?.reason.contains("outside the chain") == true)
        }
    }

    @Test("An unlinked event cannot be changed, and a linked one cannot be linked again", arguments: TestDatabase.kinds)
    func linkingChangesOnlyThePlace(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let id = UUID().uuidString.lowercased()
            try await store.driver.withSession { db in
                try await db.insert(into: "audit_events").columns("id", "occurred_at", "action", "outcome", "details")
                    .values(SQLBind(id), SQLBind(Int64(1_800_000_000_000)), SQLBind("member.deleted"), SQLBind("success"), SQLBind("{}")).run()
            }
            try await store.append(Self.event(1))
            try await store.linkPendingAuditEvents()
            for sql in [
                "UPDATE audit_events SET outcome = 'failure' WHERE id = '\(id)'",
                "UPDATE audit_events SET sequence = 99, prev_hash = (SELECT hash FROM audit_chain_head), hash = (SELECT hash FROM audit_chain_head), details = '{\"n\":\"x\"}' WHERE id = '\(id)'",
                "UPDATE audit_events SET sequence = sequence + 100 WHERE sequence IS NOT NULL",
            ] {
                await #expect(throws: (any Error).self, "\(sql)") {
                    try await store.driver.withSession { db in try await db.raw(SQLQueryString(sql)).run() }
                }
            }
        }
    }

    @Test("The trail is append-only: UPDATE and DELETE are refused", arguments: TestDatabase.kinds)
    func appendOnly(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            try await store.append(Self.event(1))
            for sql in ["UPDATE audit_events SET outcome = 'confirmed'", "DELETE FROM audit_events"] {
                await #expect(throws: (any Error).self, "\(sql)") {
                    try await store.driver.withSession { db in try await db.raw(SQLQueryString(sql)).run() }
                }
            }
            #expect(try await store.verifyAuditChain().checked == 1)
        }
    }

    @Test("An edited event is found, with the events before it intact", arguments: TestDatabase.kinds)
    func editedEvent(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            for number in 1...6 { try await store.append(Self.event(number)) }
            #expect(try await store.verifyAuditChain().isIntact)
            try await Self.tamper(store, "UPDATE audit_events SET outcome = 'conflict' WHERE sequence = 4")
            let report = try await store.verifyAuditChain()
            #expect(report.firstBroken?.sequence == 4)
            #expect(report.firstBroken?.reason.contains("edited") == true)
            #expect(report.checked == 3)
        }
    }

    @Test("A removed event, a re-hashed forgery and a cut-off tail are each found", arguments: TestDatabase.kinds)
    func removedAndCutOff(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            for number in 1...6 { try await store.append(Self.event(number)) }
            try await store.linkPendingAuditEvents()
            try await Self.tamper(store, "DELETE FROM audit_events WHERE sequence = 6")
            #expect(try await store.verifyAuditChain().firstBroken?.reason.contains("cut off") == true)

            try await Self.tamper(store, "DELETE FROM audit_events WHERE sequence = 2")
            let gap = try await store.verifyAuditChain()
            #expect(gap.firstBroken?.sequence == 2)
            #expect(gap.firstBroken?.reason.contains("missing") == true)

            // Moving the next event into the gap breaks its link to the event before.
            try await Self.tamper(store, "UPDATE audit_events SET sequence = 2 WHERE sequence = 3")
            let moved = try await store.verifyAuditChain()
            #expect(moved.firstBroken?.sequence == 2)
            #expect(moved.firstBroken?.reason.contains("previous-event hash") == true)
        }
    }

    @Test("Rewriting the tail and the head consistently, without the audit key, is found", arguments: TestDatabase.kinds)
    func rewrittenTailAndHead(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            for number in 1...5 { try await store.append(Self.event(number)) }
            let honest = try await store.verifyAuditChain()
            #expect(honest.isIntact && honest.sealed == 5)
            let digest = try #require(honest.headDigest)
            // Someone with database access but not the key edits event 5 and recomputes every hash
            // they can: as SHA-256 (the unkeyed form), and as HMAC under a key of their own.
            for (keyID, forger) in [(nil, nil), ("test", try AuditKeyRing(text: "test=" + Data(repeating: 9, count: 32).base64EncodedString(), setting: "forger"))] as [(String?, AuditKeyRing?)] {
                let (previous, id, seal) = try await store.driver.withSession { db in
                    let row = try #require(try await db.select().columns("prev_hash", "id", "seal").from("audit_events").where("sequence", .equal, 5).first())
                    return (
                        try row.decode(column: "prev_hash", as: Data.self), try row.decode(column: "id", as: String.self),
                        try row.decode(column: "seal", as: Data?.self)
                    )
                }
                let canonical = try Self.canonical(Self.event(5), id: id, sequence: 5, keyID: keyID, seal: seal, details: #"{"n":"forged"}"#)
                let hash = forger?.seal(previous + canonical, keyID: "test") ?? Data(SHA256.hash(data: previous + canonical))
                try await Self.tamper(store, "UPDATE audit_events SET details = '{\"n\":\"forged\"}', key_id = \(keyID.map { "'\($0)'" } ?? "NULL") WHERE sequence = 5")
                try await store.driver.withSession { db in
                    try await db.update("audit_events").set("hash", to: hash).where("sequence", .equal, 5).run()
                    try await db.update("audit_chain_head").set("hash", to: hash).where("id", .equal, 1).run()
                }
                let report = try await store.verifyAuditChain()
                #expect(report.firstBroken?.sequence == 5, "key \(keyID ?? "none"): \(String(describing: report.firstBroken))")
                #expect(report.headDigest != digest)
            }
        }
    }

    /// The canonical form the chain seals (as `AuditRow` encodes it), built independently here.
    private static func canonical(_ event: AuditEvent, id: String, sequence: Int64, keyID: String?, seal: Data?, details: String) throws -> Data {
        struct Canonical: Encodable {
            let id: String, occurredAt: Int64, action: String, outcome: String
            let subjectType: String?, subjectId: String?, source: String?, details: String
            let sequence: Int64, keyId: String?, seal: Data?
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try encoder.encode(Canonical(
            id: id, occurredAt: event.occurredAt.millisecondsSince1970, action: event.action, outcome: event.outcome,
            subjectType: event.subjectType, subjectId: event.subjectID, source: event.source, details: details,
            sequence: sequence, keyId: keyID, seal: seal
        ))
    }

    @Test("Events written before the chain existed are chained by the migration, in order", arguments: TestDatabase.kinds)
    func migrationChainsOldEvents(kind: DatabaseKind) async throws {
        try await TestDatabase.withEmptyDatabase(kind) { open in
            let driver = try await open()
            try await driver.whileRunning {
                try await Migrator(driver: driver, migrations: Array(Migration.all.prefix(4)), logger: TestDatabase.logger).migrate()
                try await driver.withSession { db in
                    for number in 1...3 {
                        try await db.insert(into: "audit_events")
                            .columns("id", "occurred_at", "action", "outcome", "details")
                            .values(SQLBind(UUID().uuidString.lowercased()), SQLBind(Int64(1_800_000_000_000 + number)), SQLBind("old.event"), SQLBind("success"), SQLBind("{}"))
                            .run()
                    }
                }
                let applied = try await Migrator(driver: driver, logger: TestDatabase.logger).migrate()
                #expect(applied.first == 5)
                let store = PortvaktStore(driver: driver, auditKeys: TestDatabase.auditKeys)
                try await store.append(Self.event(4))
                let report = try await store.verifyAuditChain()
                #expect(report.isIntact, "\(String(describing: report.firstBroken))")
                #expect(report.checked == 4)
            }
        }
    }
}
