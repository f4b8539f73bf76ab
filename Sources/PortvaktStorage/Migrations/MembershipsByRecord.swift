import SQLKit

/// Version 33: one membership a member record, not one an (account, organisation, role) (issue 58
/// item 5). Under the old key an account holding a role through one record could not hold a
/// second record with that role: a role change, a login taking two records, a suspension lifted or
/// a record linked by its number left that record held by nobody, and ending the first then ended
/// all access although the second still said the person is a member. Now a record is held by one
/// account at most (a unique index), and a membership without a record (an operator's) is still
/// one an (account, organisation, role).
///
/// The table is made anew, the same way on both engines (SQLite cannot drop a primary key): no
/// other table refers to it, and the database functions that read it find it by name.
enum MembershipsByRecord {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.raw("""
            CREATE TABLE memberships_by_record (
                user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                organisation_id TEXT NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
                role TEXT NOT NULL CONSTRAINT memberships_by_record_role_check CHECK (role IN ('peer_mentor', 'coordinator', 'org_admin')),
                member_record_id TEXT REFERENCES member_records (id) ON DELETE SET NULL,
                created_at BIGINT NOT NULL
            )
            """).run()
        try await db.raw("""
            INSERT INTO memberships_by_record (user_id, organisation_id, role, member_record_id, created_at)
            SELECT user_id, organisation_id, role, member_record_id, created_at FROM memberships
            """).run()
        // Should two accounts ever have held one record, the one verified with the record's number
        // keeps it, else the earliest (the other keeps what else it holds).
        try await db.raw("""
            DELETE FROM memberships_by_record WHERE member_record_id IS NOT NULL AND EXISTS (
                SELECT 1 FROM memberships_by_record other
                JOIN member_records record ON record.id = other.member_record_id
                LEFT JOIN users other_user ON other_user.id = other.user_id
                LEFT JOIN users this_user ON this_user.id = memberships_by_record.user_id
                WHERE other.member_record_id = memberships_by_record.member_record_id
                AND (CASE WHEN other_user.personnummer_index = record.personnummer_index THEN 0 ELSE 1 END, other.created_at, other.user_id, other.role)
                    < (CASE WHEN this_user.personnummer_index = record.personnummer_index THEN 0 ELSE 1 END,
                       memberships_by_record.created_at, memberships_by_record.user_id, memberships_by_record.role)
            )
            """).run()
        try await db.raw("DROP TABLE memberships").run()
        try await db.raw("ALTER TABLE memberships_by_record RENAME TO memberships").run()
        try await db.raw("CREATE UNIQUE INDEX memberships_record ON memberships (member_record_id) WHERE member_record_id IS NOT NULL").run()
        try await db.raw("""
            CREATE UNIQUE INDEX memberships_without_record ON memberships (user_id, organisation_id, role) WHERE member_record_id IS NULL
            """).run()
        try await db.raw("CREATE INDEX memberships_user ON memberships (user_id, organisation_id, role)").run()
        try await db.raw("CREATE INDEX memberships_organisation ON memberships (organisation_id)").run()
    }
}
