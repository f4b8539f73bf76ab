import Foundation

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
    /// `eid` or `password` (``PortvaktProtocol/DeviceAssurance``): what the login that enrolled
    /// (or last raised) the key proved.
    public let assurance: String

    package init(
        id: String, userId: String, name: String, platform: String, biometricKind: String, publicKeyJwk: String, keyThumbprint: String,
        createdAt: Int64, lastUsedAt: Int64?, revokedAt: Int64?, assurance: String = "eid"
    ) {
        self.id = id
        self.userId = userId
        self.name = name
        self.platform = platform
        self.biometricKind = biometricKind
        self.publicKeyJwk = publicKeyJwk
        self.keyThumbprint = keyThumbprint
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
        self.assurance = assurance
    }
}

/// A single-use challenge a device signs: bound to the device, a purpose and, for step-up, an action.
public struct DeviceChallenge: Sendable, Hashable, Codable {
    public let challengeHash: Data
    public let deviceId: String
    /// `unlock` or `step-up`.
    public let purpose: String
    public let action: String?
    public let createdAt: Int64
    public let expiresAt: Int64

    public init(challengeHash: Data, deviceID: String, purpose: String, action: String?, createdAt: Date, expiresAt: Date) {
        self.challengeHash = challengeHash
        deviceId = deviceID
        self.purpose = purpose
        self.action = action
        self.createdAt = createdAt.millisecondsSince1970
        self.expiresAt = expiresAt.millisecondsSince1970
    }
}
