import SQLKit

/// Version 36: the purge also finds sessions past their absolute end (an unlocked session's
/// idle expiry may pass it) by an index, as it finds the idle and revoked ones.
enum SessionsByAbsoluteEnd {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(index: "sessions_absolute_expires_idx").on("sessions").column("absolute_expires_at").run()
    }
}
