import SQLKit

/// Version 27: member records as the member systems (SCIM) and import files keep them (issue 45).
///
/// `member_records` gains the SCIM names (`given_name`, `family_name`), `user_name` (the member
/// number or the email; unique per organisation, compared without case), `member_number`,
/// `ended_at` (null while the membership lasts) and `version` (SCIM `meta.version`: one more on
/// every change, so `If-Match` is one conditional UPDATE). Login looks records up by email and by
/// personnummer index across organisations: both get an index of their own.
///
/// `scim_tokens` holds each member system's bearer token as a SHA-256 hash only, bound to one
/// organisation. A name is unique among the organisation's tokens that are not revoked, so a
/// revoked token's name can be given to its replacement.
enum MemberDirectoryMigration {
    static func apply(_ db: any SQLDatabase) async throws {
        // One column per statement: SQLite adds one at a time. Raw SQL reads the same on both.
        for column in [
            "given_name TEXT", "family_name TEXT", "user_name TEXT", "member_number TEXT", "ended_at BIGINT",
            "version BIGINT NOT NULL DEFAULT 1",
        ] {
            try await db.raw("ALTER TABLE member_records ADD COLUMN \(unsafeRaw: column)").run()
        }
        try await db.raw("CREATE UNIQUE INDEX member_records_user_name_key ON member_records (organisation_id, lower(user_name))").run()
        try await db.raw("CREATE INDEX member_records_email_idx ON member_records (lower(email))").run()
        try await db.raw("CREATE INDEX member_records_personnummer_idx ON member_records (personnummer_index)").run()

        try await db.create(table: "scim_tokens")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("organisation_id", type: .text, .notNull)
            .column("name", type: .text, .notNull)
            .column("token_hash", type: .blob, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("last_used_at", type: .bigint)
            .column("revoked_at", type: .bigint)
            .foreignKey(["organisation_id"], references: "organisations", ["id"], onDelete: .cascade)
            .unique("token_hash", named: "scim_tokens_token_hash_key")
            .run()
        try await db.raw("""
            CREATE UNIQUE INDEX scim_tokens_name_key ON scim_tokens (organisation_id, name) WHERE revoked_at IS NULL
            """).run()
    }
}
