import Foundation
import PortvaktCore

/// A login in progress between `/oauth/authorize` and the code: the app's request and the
/// upstream secrets (PKCE verifier, nonce), sealed, found by the hash of its `state` handle.
public struct LoginFlow: Sendable, Hashable, Codable {
    public let id: String
    /// What the flow waits for: `bankid`, `vipps` or `password`.
    public let kind: String
    public let stateHash: Data
    package let payloadSealed: Data
    package let payloadKeyId: String
    public let createdAt: Int64
    public let expiresAt: Int64

    public var payload: SealedValue { SealedValue(keyID: payloadKeyId, combined: payloadSealed) }

    package init(id: String, kind: String, stateHash: Data, payloadSealed: Data, payloadKeyId: String, createdAt: Int64, expiresAt: Int64) {
        self.id = id
        self.kind = kind
        self.stateHash = stateHash
        self.payloadSealed = payloadSealed
        self.payloadKeyId = payloadKeyId
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
