import SQLKit

/// Version 12: an administrator's invitation to password login, by the hash of the one-time link's
/// token: for which member record's email, by whom, until when, and when it was used.
enum PasswordInvites {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(table: "password_invites")
            .column("token_hash", type: .blob, .primaryKey(autoIncrement: false))
            .column("member_record_id", type: .text, .notNull)
            .column("email", type: .text, .notNull)
            .column("created_by", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .column("used_at", type: .bigint)
            .foreignKey(["member_record_id"], references: "member_records", ["id"], onDelete: .cascade)
            .run()
        try await db.create(index: "password_invites_expires_idx").on("password_invites").column("expires_at").run()
    }
}
