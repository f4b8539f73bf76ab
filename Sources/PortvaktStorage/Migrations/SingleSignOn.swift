import SQLKit

/// Version 35: single sign-on, consent and back-channel logout (issue 59 items 3, 5 and 6).
/// - `browser_sessions`: a browser's sign-in at Portvakt, by the hash of its cookie; the client
///   sessions it signed in name it (`sessions.browser_session_id`, no foreign key: a session
///   outlives the row, which is deleted when the sign-in ends).
/// - `consents`: what a person let a third-party client have, one row per person and client.
/// - `logout_outbox`: the back-channel logouts to deliver. A session made for a client with a
///   `backchannel_logout_uri` says so (`notify_logout`), and the trigger below queues its logout
///   in the very statement that revokes it, whichever of the many ways a session ends (a sign-out,
///   a disabled account, a removed device, a member system ending the last membership, a reused
///   refresh token), so none is forgotten and none waits for the delivery.
enum SingleSignOn {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(table: "browser_sessions")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("id_hash", type: .blob, .notNull, .unique)
            .column("user_id", type: .text, .notNull)
            .column("provider", type: .text, .notNull)
            .column("amr", type: .text, .notNull)
            .column("acr", type: .text, .notNull)
            .column("auth_time", type: .bigint, .notNull)
            .column("passkey_id", type: .text)
            .column("created_at", type: .bigint, .notNull)
            .column("idle_expires_at", type: .bigint, .notNull)
            .column("absolute_expires_at", type: .bigint, .notNull)
            .foreignKey(["user_id"], references: "users", ["id"], onDelete: .cascade)
            .run()
        try await db.create(index: "browser_sessions_user_idx").on("browser_sessions").column("user_id").run()
        try await db.alter(table: "sessions").column("browser_session_id", type: .text).run()
        try await db.alter(table: "sessions").column("notify_logout", type: .int).run()
        try await db.raw("""
            CREATE INDEX sessions_browser_session_idx ON sessions (browser_session_id) WHERE browser_session_id IS NOT NULL AND revoked_at IS NULL
            """).run()
        try await db.create(table: "consents")
            .column("user_id", type: .text, .notNull)
            .column("client_id", type: .text, .notNull)
            .column("scope", type: .text, .notNull)
            .column("granted_at", type: .bigint, .notNull)
            .primaryKey("user_id", "client_id")
            .foreignKey(["user_id"], references: "users", ["id"], onDelete: .cascade)
            .run()
        try await db.create(table: "logout_outbox")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("client_id", type: .text, .notNull)
            .column("session_id", type: .text, .notNull)
            .column("user_id", type: .text, .notNull)
            .column("status", type: .text, .notNull)
            .column("attempts", type: .int, .notNull)
            .column("next_attempt_at", type: .bigint, .notNull)
            .column("last_error", type: .text)
            .column("created_at", type: .bigint, .notNull)
            .column("sent_at", type: .bigint)
            .column("claim_id", type: .text)
            .column("claimed_until", type: .bigint)
            .check(SQLRaw("status IN ('pending', 'sending', 'sent', 'dead')"), named: "logout_outbox_status_check")
            .run()
        try await db.create(index: "logout_outbox_due_idx").on("logout_outbox").column("status").column("next_attempt_at").run()
        switch db.dialect.name {
        case "sqlite":
            try await db.raw("""
                CREATE TRIGGER sessions_logout_notice AFTER UPDATE OF revoked_at ON sessions
                WHEN OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL AND NEW.notify_logout = 1
                BEGIN
                    INSERT INTO logout_outbox (id, client_id, session_id, user_id, status, attempts, next_attempt_at, created_at)
                    VALUES (lower(hex(randomblob(16))), NEW.client_id, NEW.id, NEW.user_id, 'pending', 0, NEW.revoked_at, NEW.revoked_at);
                END
                """).run()
        default:
            try await db.raw("""
                CREATE FUNCTION portvakt_sessions_logout_notice() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO logout_outbox (id, client_id, session_id, user_id, status, attempts, next_attempt_at, created_at)
                    VALUES (gen_random_uuid()::text, NEW.client_id, NEW.id, NEW.user_id, 'pending', 0, NEW.revoked_at, NEW.revoked_at);
                    RETURN NEW;
                END $$
                """).run()
            try await db.raw("""
                CREATE TRIGGER sessions_logout_notice AFTER UPDATE OF revoked_at ON sessions FOR EACH ROW
                WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL AND NEW.notify_logout = 1)
                EXECUTE FUNCTION portvakt_sessions_logout_notice()
                """).run()
        }
    }
}
