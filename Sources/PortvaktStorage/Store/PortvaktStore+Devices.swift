import Foundation
import SQLKit

/// A device key registered for biometric unlock: the public half of a P-256 key that the
/// device releases only after Face ID / fingerprint.
public struct Device: Sendable, Hashable, Codable {
    public let id: String
    public let userId: String
    public let name: String
    public let platform: String
    /// `face` or `fingerprint`.
    public let biometricKind: String
    public let publicKeyJwk: String
    /// RFC 7638 thumbprint of the public key: one registration per key.
    public let keyThumbprint: String
    public let createdAt: Int64
    public let lastUsedAt: Int64?
    public let revokedAt: Int64?
}

extension PortvaktStore {
    /// - Throws: ``StoreError/duplicate(_:)`` when the key is registered already;
    ///   ``StoreError/constraint(_:)`` for an unknown biometric kind.
    public func registerDevice(
        userID: String, name: String, platform: String, biometricKind: String,
        publicKeyJWK: String, keyThumbprint: String, now: Date = Date()
    ) async throws -> Device {
        let device = Device(
            id: newID(), userId: userID, name: name, platform: platform, biometricKind: biometricKind,
            publicKeyJwk: publicKeyJWK, keyThumbprint: keyThumbprint, createdAt: now.millisecondsSince1970,
            lastUsedAt: nil, revokedAt: nil
        )
        try await write { db in try await db.insert(into: "devices").row(device).run() }
        return device
    }

    /// The user's devices that are not revoked, oldest first.
    public func activeDevices(userID: String) async throws -> [Device] {
        try await read { db in
            try await db.select().column("*").from("devices")
                .where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null)
                .orderBy("created_at").all(as: Device.self)
        }
    }

    public func revokeDevice(id: String, userID: String, now: Date = Date()) async throws {
        try await write { db in
            try await db.update("devices").set("revoked_at", to: now.millisecondsSince1970)
                .where("id", .equal, id).where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null)
                .run()
        }
    }
}
