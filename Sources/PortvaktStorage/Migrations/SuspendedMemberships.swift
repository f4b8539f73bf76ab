import SQLKit

/// Version 29: an administrator's suspension of a membership lasts (issue 45 item 5).
///
/// `member_records.suspended_at` (null unless suspended) keeps the suspended record from being
/// linked again, by a login, a claim, an invitation or the member directory's next change;
/// `suspended_user_id` names the account that held it, which lifting the suspension gives it back
/// to. The member system never sets or clears either: a suspension is the organisation's own.
enum SuspendedMemberships {
    static func apply(_ db: any SQLDatabase) async throws {
        for column in ["suspended_at BIGINT", "suspended_user_id TEXT"] {
            try await db.raw("ALTER TABLE member_records ADD COLUMN \(unsafeRaw: column)").run()
        }
    }
}
