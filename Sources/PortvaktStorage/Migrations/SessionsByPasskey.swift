import SQLKit

/// Version 26: sessions remember the passkey that opened them (filled in by issue 44 item 2).
enum SessionsByPasskey {
    static func apply(_ db: any SQLDatabase) async throws {
    }
}
