import SQLKit

/// Version 31: RS256 signing keys (issue 46 item 2), which sign ID tokens for relying parties
/// that expect OIDC's default. A table of their own: an instance of the previous version, still
/// running during a rolling upgrade, reads every row of `signing_keys` as a P-256 key. At most
/// one RS256 key is unretired, so two instances starting at once cannot both create the first.
enum SigningKeyAlgorithms {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(table: "rsa_signing_keys")
            .column("kid", type: .text, .primaryKey(autoIncrement: false))
            .column("private_key_sealed", type: .blob, .notNull)
            .column("private_key_key_id", type: .text, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("retired_at", type: .bigint)
            .run()
        try await db.raw("CREATE UNIQUE INDEX rsa_signing_keys_one_active ON rsa_signing_keys ((retired_at IS NULL)) WHERE retired_at IS NULL").run()
    }
}
