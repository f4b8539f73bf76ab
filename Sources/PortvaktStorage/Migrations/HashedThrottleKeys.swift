import SQLKit

/// Version 25: throttle keys become HMACs under the index key (filled in by issue 44 item 6).
enum HashedThrottleKeys {
    static func apply(_ db: any SQLDatabase) async throws {
    }
}
