import SQLKit

/// Version 18: a redeemed authorization code stays, marked, until it would have expired, so a
/// second redemption is known as a replay and ends the session the code made (RFC 6749 §4.1.2,
/// RFC 9700 §4.5.3) instead of looking like an unknown code.
enum AuthorizationCodeTombstones {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "authorization_codes").column("redeemed_at", type: .bigint).run()
    }
}
