import SQLKit

/// Version 25: throttle keys become HMACs under a key derived from the index key, where they were
/// plain SHA-256 of an address, an email or an identity, which anyone holding the table could
/// match by hashing guesses. The old rows cannot be rekeyed (only their hashes are kept), so they
/// go: every throttle starts empty once.
enum HashedThrottleKeys {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.delete(from: "login_throttles").run()
    }
}
