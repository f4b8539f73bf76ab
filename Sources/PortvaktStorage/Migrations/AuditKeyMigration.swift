import SQLKit

/// Version 8: audit events are sealed with HMAC under a key kept outside the database; each
/// event names its key (`key_id`), so keys can be rotated. Events from before stay as they were
/// chained (SHA-256), and come first.
enum AuditKeyMigration {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "audit_events").column("key_id", type: .text).run()
    }
}
