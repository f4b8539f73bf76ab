import SQLKit

/// Version 10: failed-attempt counters (password, device assertion, client address) shared by
/// every instance. The key is a hash, so the table holds no email address or IP address.
enum LoginThrottles {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(table: "login_throttles")
            .column("key", type: .text, .primaryKey(autoIncrement: false))
            .column("failures", type: .int, .notNull)
            .column("last_failure_at", type: .bigint, .notNull)
            .column("blocked_until", type: .bigint, .notNull)
            .run()
        try await db.create(index: "login_throttles_last_failure_idx").on("login_throttles").column("last_failure_at").run()
    }
}
