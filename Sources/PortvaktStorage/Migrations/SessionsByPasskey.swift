import SQLKit

/// Version 26: sessions remember the passkey whose sign-in opened them, so that removing the
/// passkey ends them as revoking a device ends the sessions it unlocked (issue 44 item 2).
///
/// No foreign key: the removal revokes the sessions in its own transaction, and a revoked
/// session keeps naming the passkey that opened it. The index holds the active sessions opened
/// by a passkey only, the few the removal looks for. The PostgreSQL functions need no change:
/// the rotation reads and returns the whole row (`sessions.*`), and an unlock opens no passkey's
/// session (its insert leaves the column NULL).
enum SessionsByPasskey {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "sessions").column("passkey_id", type: .text).run()
        try await db.raw("""
            CREATE INDEX sessions_passkey_active_idx ON sessions (passkey_id) WHERE passkey_id IS NOT NULL AND revoked_at IS NULL
            """).run()
    }
}
