import SQLKit

/// Version 17: an unlock ends the device's active session with the client, and revoking a device
/// ends all of them. Through `sessions_device_idx` both read every session the device ever had
/// (ended ones stay a day before the purge), one table row each: with a few hundred, that was
/// a third of the unlock's transaction in SQLite. This index holds the active sessions only;
/// `sessions_device_idx` stays for the foreign key (a deleted device's sessions are found by it).
enum ActiveSessionsByDevice {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.raw("CREATE INDEX sessions_device_active_idx ON sessions (device_id) WHERE revoked_at IS NULL").run()
    }
}
