import Foundation

/// A signing key as stored: the private key sealed under the data encryption key.
public struct StoredSigningKey: Sendable {
    public let kid: String
    public let sealedPrivateKey: SealedValue
    public let createdAt: Date
    public let retiredAt: Date?

    public init(kid: String, sealedPrivateKey: SealedValue, createdAt: Date, retiredAt: Date?) {
        self.kid = kid
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
        self.retiredAt = retiredAt
    }
}

/// Where signing keys persist, shared by every server instance.
public protocol SigningKeyRepository: Sendable {
    /// Every stored key, newest first.
    func signingKeys() async throws -> [StoredSigningKey]
    /// Stores `key` as the one that signs, and marks every other unretired key retired at `now`.
    func activate(_ key: StoredSigningKey, now: Date) async throws
}
