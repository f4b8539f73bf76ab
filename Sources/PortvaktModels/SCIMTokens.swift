import Foundation
import PortvaktCore

/// A member system's bearer token for SCIM, bound to one organisation; only its SHA-256 is kept.
public struct SCIMToken: Sendable, Hashable, Codable {
    public let id: String
    public let organisationId: String
    /// The operator's name for the member system (unique among the organisation's live tokens).
    public let name: String
    public let tokenHash: Data
    public let createdAt: Int64
    public let lastUsedAt: Int64?
    public let revokedAt: Int64?

    public init(id: String, organisationID: String, name: String, tokenHash: Data, now: Date) {
        self.id = id
        organisationId = organisationID
        self.name = name
        self.tokenHash = tokenHash
        createdAt = now.millisecondsSince1970
        lastUsedAt = nil
        revokedAt = nil
    }
}
