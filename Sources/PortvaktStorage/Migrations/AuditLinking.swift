import SQLKit

/// Version 15: audit events are committed with the change they record and linked into the hash
/// chain right after, in batches, by one linker at a time (``PortvaktStore/linkPendingAuditEvents(batchSize:)``).
/// Before, every event moved the chain head inside its own transaction, so every audited request
/// waited for the one before it to commit (on PostgreSQL with fsync, a disk flush each).
///
/// - `seal`: HMAC of the event as written, under its `key_id`. A row nobody with the audit key
///   wrote is never linked, and `audit verify` names it as outside the chain, as before.
/// - An UPDATE is refused unless it links an unlinked event: sets its sequence, previous hash and
///   hash, and changes nothing else. Everything else stays append-only.
enum AuditLinking {
    static let columns = [
        "id", "occurred_at", "action", "outcome", "actor_user_id", "organisation_id", "subject_type", "subject_id",
        "source", "details", "key_id", "seal",
    ]

    static func apply(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "audit_events").column("seal", type: .blob).run()
        try await db.raw("CREATE INDEX audit_events_unlinked ON audit_events (occurred_at, id) WHERE sequence IS NULL").run()
        switch db.dialect.name {
        case "sqlite":
            let changed = columns.map { "NEW.\($0) IS NOT OLD.\($0)" }.joined(separator: " OR ")
            try await db.raw("DROP TRIGGER audit_events_no_update").run()
            try await db.raw(SQLQueryString("""
                CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
                WHEN OLD.sequence IS NOT NULL OR NEW.sequence IS NULL OR NEW.prev_hash IS NULL OR NEW.hash IS NULL OR \(changed)
                BEGIN SELECT RAISE(ABORT, 'audit_events is append-only'); END
                """)).run()
        default:
            let new = columns.map { "NEW.\($0)" }.joined(separator: ", ")
            let old = columns.map { "OLD.\($0)" }.joined(separator: ", ")
            try await db.raw(SQLQueryString("""
                CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF TG_OP = 'UPDATE' AND OLD.sequence IS NULL AND NEW.sequence IS NOT NULL AND NEW.prev_hash IS NOT NULL
                       AND NEW.hash IS NOT NULL AND (\(new)) IS NOT DISTINCT FROM (\(old)) THEN
                        RETURN NEW;
                    END IF;
                    RAISE EXCEPTION 'audit_events is append-only';
                END $$
                """)).run()
        }
    }
}
