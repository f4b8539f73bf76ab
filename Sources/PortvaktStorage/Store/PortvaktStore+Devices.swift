import Foundation
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// - Parameter limit: how many active devices the user may have, this one included.
    /// - Throws: ``StoreError/duplicate(_:)`` when the key is registered already;
    ///   ``StoreError/limitReached(_:)`` when the user has `limit` active devices;
    ///   ``StoreError/constraint(_:)`` for an unknown biometric kind.
    public func registerDevice(
        userID: String, name: String, platform: String, biometricKind: String,
        publicKeyJWK: String, keyThumbprint: String, assurance: String = "eid", limit: Int = .max, sessionID: String? = nil, now: Date = Date()
    ) async throws -> Device {
        let device = Device(
            id: newID(), userId: userID, name: name, platform: platform, biometricKind: biometricKind,
            publicKeyJwk: publicKeyJWK, keyThumbprint: keyThumbprint, createdAt: now.millisecondsSince1970,
            lastUsedAt: nil, revokedAt: nil, assurance: assurance
        )
        try await write { db in
            // Lock the user's row first, so that concurrent registrations count one after another.
            try await Self.lockUser(id: userID, in: db)
            // Under that lock a new password (which ends every session) waits or has won: a
            // session it ended enrols nothing.
            if let sessionID {
                let active = try await db.select().column("id").from("sessions")
                    .where("id", .equal, sessionID).where("revoked_at", .is, SQLLiteral.null).first()
                guard active != nil else { throw StoreError.notFound("sessions") }
            }
            let active = try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("devices")
                .where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null)
                .first()?.decode(column: "n", as: Int.self) ?? 0
            guard active < limit else { throw StoreError.limitReached("devices") }
            try await db.insert(into: "devices").row(device).run()
        }
        return device
    }

    public func device(id: String) async throws -> Device? {
        // Written out: SQLKit's builders cost more to serialize than this takes to run.
        try await read { db in try await db.raw("SELECT * FROM devices WHERE id = \(bind: id)").first(as: Device.self) }
    }

    /// The device (nil when unknown) and the latest time any of `throttleKeys` is blocked until,
    /// when later than `now`, in one read: both unlock requests ask both.
    public func device(id: String, blockedUntilFor throttleKeys: [String], now: Date = Date()) async throws -> (device: Device?, blockedUntil: Date?) {
        try await row(of: "devices", id: id, as: Device.self, blockedUntilFor: throttleKeys, now: now)
    }

    /// The user's devices that are not revoked, oldest first.
    public func activeDevices(userID: String) async throws -> [Device] {
        try await read { db in
            try await db.select().column("*").from("devices")
                .where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null)
                .orderBy("created_at").all(as: Device.self)
        }
    }

    /// Revokes the device and ends every session it unlocked.
    /// - Returns: false when the user has no such active device.
    @discardableResult
    public func revokeDevice(id: String, userID: String, now: Date = Date()) async throws -> Bool {
        let time = now.millisecondsSince1970
        return try await write { db in
            let revoked = try await db.update("devices").set("revoked_at", to: time)
                .where("id", .equal, id).where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null)
                .returning("id").first() != nil
            if revoked {
                try await db.update("sessions").set("revoked_at", to: time).set("revoked_reason", to: "device_revoked")
                    .where("device_id", .equal, id).where("revoked_at", .is, SQLLiteral.null).run()
            }
            return revoked
        }
    }

    /// Locks the user's row until the transaction ends: writes about one person (a device's
    /// registration, a new password) then come one after another.
    static func lockUser(id: String, in db: any SQLDatabase) async throws {
        try await db.update("users").set(SQLIdentifier("id"), to: SQLIdentifier("id")).where("id", .equal, id).run()
    }

    /// Raises the user's active password-level device to BankID's or Vipps's level.
    /// - Returns: the device as it is now; nil when the user has no such active device.
    public func raiseDevice(id: String, userID: String) async throws -> (device: Device, raised: Bool)? {
        try await write { db in
            let raised = try await db.update("devices").set("assurance", to: "eid")
                .where("id", .equal, id).where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null)
                .where("assurance", .equal, "password")
                .returning("id").first() != nil
            let device = try await db.select().column("*").from("devices")
                .where("id", .equal, id).where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null)
                .first(as: Device.self)
            return device.map { ($0, raised) }
        }
    }

    /// Revokes the user's password-level devices and ends the sessions they unlocked: a new
    /// password means the old one may be known to someone else, who may have enrolled a key with it.
    static func revokePasswordLevelDevices(userID: String, at time: Int64, in db: any SQLDatabase) async throws {
        let revoked = try await db.update("devices").set("revoked_at", to: time)
            .where("user_id", .equal, userID).where("assurance", .equal, "password").where("revoked_at", .is, SQLLiteral.null)
            .returning("id").all().map { try $0.decode(column: "id", as: String.self) }
        guard !revoked.isEmpty else { return }
        try await db.update("sessions").set("revoked_at", to: time).set("revoked_reason", to: "device_revoked")
            .where("device_id", .in, revoked).where("revoked_at", .is, SQLLiteral.null).run()
    }

    public func markDeviceUsed(id: String, now: Date = Date()) async throws {
        try await write { db in
            try await db.update("devices").set("last_used_at", to: now.millisecondsSince1970).where("id", .equal, id).run()
        }
    }
}

extension PortvaktStore {
    public func insertDeviceChallenge(_ challenge: DeviceChallenge) async throws {
        try await writeAlone { db in
            try await db.raw("""
                INSERT INTO device_challenges (challenge_hash, device_id, purpose, action, created_at, expires_at) \
                VALUES (\(bind: challenge.challengeHash), \(bind: challenge.deviceId), \(bind: challenge.purpose), \(bind: challenge.action), \
                \(bind: challenge.createdAt), \(bind: challenge.expiresAt))
                """).run()
        }
    }

    /// Takes a challenge in one `DELETE … RETURNING`, so that it answers at most one assertion.
    /// Returns nil when it is unknown, used, or expired at `now` (deleted all the same).
    public func takeDeviceChallenge(hash: Data, now: Date = Date()) async throws -> DeviceChallenge? {
        let challenge = try await writeAlone { db in
            try await db.delete(from: "device_challenges").where("challenge_hash", .equal, hash)
                .returning(SQLLiteral.all).first(as: DeviceChallenge.self)
        }
        guard let challenge, challenge.expiresAt > now.millisecondsSince1970 else { return nil }
        return challenge
    }

    /// Deletes challenges nobody answered in time; returns how many.
    @discardableResult
    public func purgeExpiredDeviceChallenges(now: Date = Date()) async throws -> Int {
        try await write { db in
            try await db.delete(from: "device_challenges").where("expires_at", .lessThanOrEqual, now.millisecondsSince1970)
                .returning("device_id").all().count
        }
    }
}
