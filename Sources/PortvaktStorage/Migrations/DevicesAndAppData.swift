import SQLKit

/// Version 4: biometric unlock and the app's own data.
///
/// - `users.last_eid_login_at`: the last BankID or Vipps login, which device trust is counted from.
/// - `device_challenges`: single-use challenges, stored as hashes and taken by one
///   `DELETE … RETURNING`, bound to a device, a purpose and (for step-up) an action.
/// - `activities`, `contacts`, `expense_claims`: what peer mentors log, whom they support
///   (details sealed), and what they claim. Writes the app may replay carry the caller's
///   `Idempotency-Key`, unique per user, and a hash of the request it first came with.
enum DevicesAndAppData {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.raw("ALTER TABLE users ADD COLUMN last_eid_login_at BIGINT").run()

        try await db.create(table: "device_challenges")
            .column("challenge_hash", type: .blob, .primaryKey(autoIncrement: false))
            .column("device_id", type: .text, .notNull)
            .column("purpose", type: .text, .notNull)
            .column("action", type: .text)
            .column("created_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .foreignKey(["device_id"], references: "devices", ["id"], onDelete: .cascade)
            .check(SQLRaw("purpose IN ('unlock', 'step-up')"), named: "device_challenges_purpose_check")
            .run()
        try await db.create(index: "device_challenges_expires_idx").on("device_challenges").column("expires_at").run()
        try await db.create(index: "devices_user_idx").on("devices").column("user_id").run()

        try await db.create(table: "contacts")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("organisation_id", type: .text, .notNull)
            .column("assigned_user_id", type: .text)
            .column("display_name", type: .text, .notNull)
            .column("details_sealed", type: .blob, .notNull)
            .column("details_key_id", type: .text, .notNull)
            .column("created_by", type: .text)
            .column("created_at", type: .bigint, .notNull)
            .foreignKey(["organisation_id"], references: "organisations", ["id"], onDelete: .cascade)
            .foreignKey(["assigned_user_id"], references: "users", ["id"], onDelete: .setNull)
            .foreignKey(["created_by"], references: "users", ["id"], onDelete: .setNull)
            .run()
        try await db.create(index: "contacts_organisation_idx").on("contacts").column("organisation_id").run()

        try await db.create(table: "activities")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("organisation_id", type: .text, .notNull)
            .column("user_id", type: .text, .notNull)
            .column("kind", type: .text, .notNull)
            .column("occurred_at", type: .bigint, .notNull)
            .column("duration_minutes", type: .int, .notNull)
            .column("note", type: .text)
            .column("contact_id", type: .text)
            .column("idempotency_key", type: .text, .notNull)
            .column("request_hash", type: .blob, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .foreignKey(["organisation_id"], references: "organisations", ["id"], onDelete: .cascade)
            .foreignKey(["user_id"], references: "users", ["id"], onDelete: .cascade)
            .foreignKey(["contact_id"], references: "contacts", ["id"], onDelete: .setNull)
            .unique("user_id", "idempotency_key", named: "activities_idempotency_key")
            .run()
        try await db.create(index: "activities_organisation_idx").on("activities").column("organisation_id").column("occurred_at").run()

        try await db.create(table: "expense_claims")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("organisation_id", type: .text, .notNull)
            .column("user_id", type: .text, .notNull)
            .column("amount_ore", type: .bigint, .notNull)
            .column("description", type: .text, .notNull)
            .column("idempotency_key", type: .text, .notNull)
            .column("request_hash", type: .blob, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .foreignKey(["organisation_id"], references: "organisations", ["id"], onDelete: .cascade)
            .foreignKey(["user_id"], references: "users", ["id"], onDelete: .cascade)
            .unique("user_id", "idempotency_key", named: "expense_claims_idempotency_key")
            .check(SQLRaw("amount_ore > 0"), named: "expense_claims_amount_check")
            .run()
        try await db.create(index: "expense_claims_organisation_idx").on("expense_claims").column("organisation_id").run()
    }
}
