import SQLKit

/// Version 2: the role an organisation gives a member. Login copies it into the membership.
enum MemberRoles {
    static func apply(_ db: any SQLDatabase) async throws {
        // Raw SQL because SQLKit's ALTER TABLE builder cannot add a column with a CHECK; both
        // SQLite and PostgreSQL accept this statement as written.
        try await db.raw("""
            ALTER TABLE member_records ADD COLUMN role TEXT NOT NULL DEFAULT 'peer_mentor'
            CHECK (role IN ('peer_mentor', 'coordinator', 'org_admin'))
            """).run()
    }
}
