import SQLKit

/// Version 11: the web portal's own state, shared by every instance.
/// - `portal_logins`: a sign-in on its way through `/oauth/authorize` (by the hash of its
///   `state`), with its PKCE verifier sealed, for ten minutes.
/// - `portal_sessions`: a signed-in browser (by the hash of its cookie), the Portvakt session
///   the login opened, idle and absolute expiry.
enum PortalSessions {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(table: "portal_logins")
            .column("state_hash", type: .blob, .primaryKey(autoIncrement: false))
            .column("payload_sealed", type: .blob, .notNull)
            .column("payload_key_id", type: .text, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .run()
        try await db.create(table: "portal_sessions")
            .column("id_hash", type: .blob, .primaryKey(autoIncrement: false))
            .column("user_id", type: .text, .notNull)
            .column("session_id", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("idle_expires_at", type: .bigint, .notNull)
            .column("absolute_expires_at", type: .bigint, .notNull)
            .foreignKey(["user_id"], references: "users", ["id"], onDelete: .cascade)
            .foreignKey(["session_id"], references: "sessions", ["id"], onDelete: .cascade)
            .run()
        try await db.create(index: "portal_sessions_session_idx").on("portal_sessions").column("session_id").run()
    }
}
