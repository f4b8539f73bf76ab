import SQLKit

/// Version 9: each claim of an outbox message names its claim (`claim_id`), so only the worker
/// that holds the current claim can record the outcome; messages of one member are delivered in
/// order, found through `member_record_id`.
enum OutboxClaims {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "member_outbox").column("claim_id", type: .text).run()
        try await db.create(index: "member_outbox_member_idx").on("member_outbox").column("member_record_id").column("status").run()
    }
}
