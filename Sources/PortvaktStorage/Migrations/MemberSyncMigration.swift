import SQLKit

/// Version 6: what each BankID or Vipps login did to the member records, and the outbox towards
/// the organisations' own member systems.
///
/// - `member_sync_log`: one entry per login and member record, with its outcome (`updated`,
///   `confirmed`, `conflict`, `absent`, `invalid`), never the number. A conflict keeps the
///   login's number sealed for this entry, so an administrator can take it later, and is `open`
///   until resolved. An `absent` entry is shown to the user once (`notified_at`).
/// - `member_outbox`: updates for external member systems, committed with the login and
///   delivered by a worker: the payload (which holds the number) sealed, attempts and the next
///   attempt's time, `pending` → `delivered` or `dead`.
enum MemberSyncMigration {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(table: "member_sync_log")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("occurred_at", type: .bigint, .notNull)
            .column("organisation_id", type: .text, .notNull)
            .column("member_record_id", type: .text)
            .column("user_id", type: .text)
            .column("source", type: .text, .notNull)
            .column("outcome", type: .text, .notNull)
            .column("status", type: .text)
            .column("login_personnummer_sealed", type: .blob)
            .column("login_personnummer_key_id", type: .text)
            .column("notified_at", type: .bigint)
            .column("resolved_at", type: .bigint)
            .column("resolved_by", type: .text)
            .column("resolution", type: .text)
            .foreignKey(["organisation_id"], references: "organisations", ["id"], onDelete: .cascade)
            .foreignKey(["member_record_id"], references: "member_records", ["id"], onDelete: .setNull)
            .foreignKey(["user_id"], references: "users", ["id"], onDelete: .setNull)
            .check(SQLRaw("outcome IN ('updated', 'confirmed', 'conflict', 'absent', 'invalid')"), named: "member_sync_log_outcome_check")
            .check(SQLRaw("status IS NULL OR status IN ('open', 'resolved')"), named: "member_sync_log_status_check")
            .run()
        try await db.create(index: "member_sync_log_organisation_idx").on("member_sync_log").column("organisation_id").column("occurred_at").run()
        try await db.create(index: "member_sync_log_user_idx").on("member_sync_log").column("user_id").run()

        try await db.create(table: "member_outbox")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("organisation_id", type: .text, .notNull)
            .column("member_record_id", type: .text)
            .column("event", type: .text, .notNull)
            .column("payload_sealed", type: .blob, .notNull)
            .column("payload_key_id", type: .text, .notNull)
            .column("status", type: .text, .notNull)
            .column("attempts", type: .int, .notNull)
            .column("next_attempt_at", type: .bigint, .notNull)
            .column("last_error", type: .text)
            .column("created_at", type: .bigint, .notNull)
            .column("delivered_at", type: .bigint)
            .foreignKey(["organisation_id"], references: "organisations", ["id"], onDelete: .cascade)
            .foreignKey(["member_record_id"], references: "member_records", ["id"], onDelete: .setNull)
            .check(SQLRaw("status IN ('pending', 'delivered', 'dead')"), named: "member_outbox_status_check")
            .run()
        try await db.create(index: "member_outbox_due_idx").on("member_outbox").column("status").column("next_attempt_at").run()
    }
}
