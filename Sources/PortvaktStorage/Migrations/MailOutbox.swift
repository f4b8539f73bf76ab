import SQLKit

/// Version 19: the mail outbox. Each message waits as `pending` until a worker claims it
/// (`sending`, under `claim_id` until `claimed_until`), then is `sent` or, after its last
/// attempt, `dead`. The body (which may hold a one-time link) is sealed, and set to NULL once the
/// message is sent or dead; the subject never holds a secret.
enum MailOutbox {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(table: "mail_outbox")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("recipient", type: .text, .notNull)
            .column("language", type: .text, .notNull)
            .column("kind", type: .text, .notNull)
            .column("subject", type: .text, .notNull)
            .column("body_sealed", type: .blob)
            .column("body_key_id", type: .text)
            .column("status", type: .text, .notNull)
            .column("attempts", type: .int, .notNull)
            .column("next_attempt_at", type: .bigint, .notNull)
            .column("last_error", type: .text)
            .column("created_at", type: .bigint, .notNull)
            .column("sent_at", type: .bigint)
            .column("claim_id", type: .text)
            .column("claimed_until", type: .bigint)
            .check(SQLRaw("status IN ('pending', 'sending', 'sent', 'dead')"), named: "mail_outbox_status_check")
            .run()
        try await db.create(index: "mail_outbox_due_idx").on("mail_outbox").column("status").column("next_attempt_at").run()
        try await db.create(index: "mail_outbox_created_idx").on("mail_outbox").column("created_at").run()
    }
}
