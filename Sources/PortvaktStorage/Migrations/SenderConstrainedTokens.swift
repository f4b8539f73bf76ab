import SQLKit

/// Version 13: DPoP (RFC 9449). A session and an authorization code may be bound to the
/// thumbprint of a client's key, and every proof's `jti` is recorded once until it expires, so
/// no instance accepts a proof twice.
enum SenderConstrainedTokens {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "sessions").column("dpop_jkt", type: .text).run()
        try await db.alter(table: "authorization_codes").column("dpop_jkt", type: .text).run()
        try await db.create(table: "dpop_proofs")
            .column("jti_hash", type: .blob, .primaryKey(autoIncrement: false))
            .column("expires_at", type: .bigint, .notNull)
            .run()
        try await db.create(index: "dpop_proofs_expires_idx").on("dpop_proofs").column("expires_at").run()
    }
}
