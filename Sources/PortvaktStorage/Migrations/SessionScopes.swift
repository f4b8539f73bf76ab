import SQLKit

/// Version 34: sessions remember the scopes granted at login, which decide the claims of their
/// tokens (issue 59 item 2). Sessions from before are left NULL: they keep every claim they had.
/// As in version 26, the PostgreSQL functions need no change: the rotation returns the whole row,
/// and an unlock's insert leaves the column NULL (Portvakt's own app, every claim).
enum SessionScopes {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.alter(table: "sessions").column("scope", type: .text).run()
    }
}
