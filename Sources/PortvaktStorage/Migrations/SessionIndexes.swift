import SQLKit

/// Version 7: revoking a device finds its sessions by `device_id`, and the purge finds ended
/// sessions by when they ended, without reading the whole table.
enum SessionIndexes {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(index: "sessions_device_idx").on("sessions").column("device_id").run()
        try await db.create(index: "sessions_idle_expires_idx").on("sessions").column("idle_expires_at").run()
        try await db.create(index: "sessions_revoked_idx").on("sessions").column("revoked_at").run()
    }
}
