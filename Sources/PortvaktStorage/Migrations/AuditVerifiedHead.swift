import SQLKit

/// Version 21: the head up to which the audit chain was last found intact, so the
/// administration's audit page walks only the events after it (every instance shares it);
/// `portvakt-server audit verify` still walks the whole chain.
enum AuditVerifiedHead {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(table: "audit_verified_head")
            .column("id", type: .int, .primaryKey(autoIncrement: false))
            .column("sequence", type: .bigint, .notNull)
            .column("hash", type: .blob, .notNull)
            .run()
    }
}
