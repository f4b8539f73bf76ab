import Foundation

/// A DPoP proof's `jti` (hashed with its key) to record once, until `expiresAt`.
public struct DPoPProofRecord: Sendable {
    public let jtiHash: Data
    public let expiresAt: Date

    public init(jtiHash: Data, expiresAt: Date) {
        self.jtiHash = jtiHash
        self.expiresAt = expiresAt
    }
}
