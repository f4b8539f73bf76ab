import SQLKit

/// Version 24: passkeys (WebAuthn credentials) on the web, and the ceremonies' challenges. A
/// challenge is found by what it is bound to (the login's flow, or the portal session and the
/// purpose), one per binding, and taken out in one `DELETE … RETURNING`, so it is used once on
/// whichever instance answers.
enum Passkeys {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(table: "passkeys")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull)
            .column("credential_id", type: .blob, .notNull)
            .column("user_handle", type: .blob, .notNull)
            .column("public_key", type: .blob, .notNull)
            .column("algorithm", type: .int, .notNull)
            .column("sign_count", type: .bigint, .notNull)
            .column("backup_eligible", type: .int, .notNull)
            .column("backed_up", type: .int, .notNull)
            .column("aaguid", type: .blob, .notNull)
            .column("name", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("last_used_at", type: .bigint)
            .unique("credential_id", named: "passkeys_credential_id_key")
            .foreignKey(["user_id"], references: "users", ["id"], onDelete: .cascade)
            .run()
        try await db.create(index: "passkeys_user_idx").on("passkeys").column("user_id").run()
        try await db.create(table: "webauthn_challenges")
            .column("binding_hash", type: .blob, .primaryKey(autoIncrement: false))
            .column("purpose", type: .text, .notNull)
            .column("user_id", type: .text)
            .column("challenge", type: .blob, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "webauthn_challenges_expires_idx").on("webauthn_challenges").column("expires_at").run()
    }
}
