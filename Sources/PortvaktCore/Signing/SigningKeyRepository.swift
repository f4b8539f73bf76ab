import Foundation

/// A signing key as stored: the private key sealed under the data encryption key.
public struct StoredSigningKey: Sendable {
    public let kid: String
    public let algorithm: SigningKey.Algorithm
    public let sealedPrivateKey: SealedValue
    public let createdAt: Date
    public let retiredAt: Date?

    public init(kid: String, algorithm: SigningKey.Algorithm, sealedPrivateKey: SealedValue, createdAt: Date, retiredAt: Date?) {
        self.kid = kid
        self.algorithm = algorithm
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
        self.retiredAt = retiredAt
    }
}

/// Where signing keys persist, shared by every server instance.
public protocol SigningKeyRepository: Sendable {
    /// Every stored key, newest first.
    func signingKeys() async throws -> [StoredSigningKey]
    /// Stores `keys` (one per algorithm) as the ones that sign, and marks every other unretired
    /// key of their algorithms retired at `now`, in one transaction.
    func activate(_ keys: [StoredSigningKey], now: Date) async throws
}
