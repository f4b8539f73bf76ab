import SQLKit

/// Version 31: signing keys of more than one algorithm (issue 46 item 2). Every key so far is
/// ES256; RS256 keys sign ID tokens for relying parties that expect OIDC's default.
enum SigningKeyAlgorithms {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.raw("ALTER TABLE signing_keys ADD COLUMN algorithm TEXT NOT NULL DEFAULT 'ES256'").run()
    }
}
