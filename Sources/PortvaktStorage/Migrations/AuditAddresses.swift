import SQLKit

/// Version 23: the client address of an audit event, kept beside the event, outside its hash and
/// seal, so it can be deleted after the retention period (PRIVACY.md) while the hash chain stays
/// whole. The event's own row is append-only.
enum AuditAddresses {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(table: "audit_addresses")
            .column("event_id", type: .text, .primaryKey(autoIncrement: false))
            .column("client_address", type: .text, .notNull)
            .column("recorded_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "audit_addresses_recorded_idx").on("audit_addresses").column("recorded_at").run()
    }
}
