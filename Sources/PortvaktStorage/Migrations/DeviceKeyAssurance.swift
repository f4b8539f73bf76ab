import SQLKit

/// Version 37: a device key records what enrolled it (`eid` or `password`: issue 61 item 12),
/// and a user the last password login, which renews a password-level key's trust. The keys
/// before were all enrolled after BankID or Vipps. A contract step: a release before would
/// unlock a password-level key at BankID's level and leave it standing after a new password, so
/// its instances stop before this runs (CHANGELOG.md).
enum DeviceKeyAssurance {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "devices").column("assurance", type: .text, .notNull, .default(SQLLiteral.string("eid"))).run()
        try await db.alter(table: "users").column("last_password_login_at", type: .bigint).run()
    }
}
