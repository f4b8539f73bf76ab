import Crypto
import Foundation
import PortvaktCore
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
            occurredAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(number)), action: "member.personnummer.updated", outcome: "updated",
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
                let (previous, id) = try await store.driver.withSession { db in
                    let row = try #require(try await db.select().column("prev_hash").column("id").from("audit_events").where("sequence", .equal, 5).first())
                    return (try row.decode(column: "prev_hash", as: Data.self), try row.decode(column: "id", as: String.self))
                }
                let canonical = try Self.canonical(Self.event(5), id: id, sequence: 5, keyID: keyID, details: #"{"n":"forged"}"#)
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
    private static func canonical(_ event: AuditEvent, id: String, sequence: Int64, keyID: String?, details: String) throws -> Data {
        var object: [String: Any] = [
            "id": id, "occurredAt": event.occurredAt.millisecondsSince1970, "action": event.action, "outcome": event.outcome,
            "subjectType": event.subjectType as Any, "subjectId": event.subjectID as Any, "source": event.source as Any,
            "details": details, "sequence": sequence,
        ]
        object["keyId"] = keyID
        return try JSONSerialization.data(withJSONObject: object.compactMapValues { $0 is NSNull ? nil : $0 }, options: [.sortedKeys, .withoutEscapingSlashes])
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
