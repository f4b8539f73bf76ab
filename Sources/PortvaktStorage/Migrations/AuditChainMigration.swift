import Foundation
import PortvaktModels
import SQLKit

/// Version 5: the audit trail becomes a hash chain. Each event gets a sequence number, the hash
/// of the event before it and its own hash (SHA-256 over that previous hash and the event's
/// canonical form); `audit_chain_head` holds the last sequence and hash, so a truncated tail is
/// caught too. Events written before this version are chained here, in their order. Triggers
/// then refuse every UPDATE and DELETE: the table is append-only.
enum AuditChainMigration {
    static func apply(_ db: any SQLDatabase) async throws {
        // One column per statement: SQLite adds one column per ALTER TABLE.
        try await db.alter(table: "audit_events").column("sequence", type: .bigint).run()
        try await db.alter(table: "audit_events").column("prev_hash", type: .blob).run()
        try await db.alter(table: "audit_events").column("hash", type: .blob).run()
        try await db.create(table: "audit_chain_head")
            .column("id", type: .int, .primaryKey(autoIncrement: false))
            .column("sequence", type: .bigint, .notNull)
            .column("hash", type: .blob, .notNull)
            .run()

        var head = AuditChainHead.genesis
        let rows = try await db.select().column("*").from("audit_events").orderBy("occurred_at").orderBy("id")
            .all(decoding: AuditRow.self, keyDecodingStrategy: .convertFromSnakeCase)
        for var row in rows {
            head = try row.chain(after: head, keys: nil)
            try await db.update("audit_events")
                .set("sequence", to: row.sequence).set("prev_hash", to: row.prevHash).set("hash", to: row.hash)
                .where("id", .equal, row.id).run()
        }
        try await db.insert(into: "audit_chain_head").columns("id", "sequence", "hash")
            .values(SQLBind(1), SQLBind(head.sequence), SQLBind(head.hash)).run()
        try await db.create(index: "audit_events_sequence_key").on("audit_events").column("sequence").unique().run()

        switch db.dialect.name {
        case "sqlite":
            for operation in ["UPDATE", "DELETE"] {
                try await db.raw("""
                    CREATE TRIGGER audit_events_no_\(unsafeRaw: operation.lowercased()) BEFORE \(unsafeRaw: operation) ON audit_events
                    BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END
                    """).run()
            }
        default:
            try await db.raw("""
                CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'audit_events is append-only'; END $$
                """).run()
            try await db.raw("""
                CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
                FOR EACH ROW EXECUTE FUNCTION audit_events_append_only()
                """).run()
        }
    }
}
