import Foundation
import PortvaktCore

/// A login without a member record, while its person claims one by an emailed code.
public struct MembershipClaim: Sendable, Hashable, Codable {
    public let id: String
    package let handleHash: Data
    package let payloadSealed: Data
    package let payloadKeyId: String
    /// The claimable records the entered email found, comma-separated; nil before, or when it found none.
    package let memberRecordIds: String?
    public let codeHash: Data?
    public let codeExpiresAt: Int64?
    public let emailsSent: Int
    public let tries: Int
    public let createdAt: Int64
    public let expiresAt: Int64

    public var payload: SealedValue { SealedValue(keyID: payloadKeyId, combined: payloadSealed) }
    public var memberRecordIDs: [String] { memberRecordIds.map { $0.split(separator: ",").map(String.init) } ?? [] }

    package init(id: String, handleHash: Data, payloadSealed: Data, payloadKeyId: String, memberRecordIds: String?, codeHash: Data?, codeExpiresAt: Int64?, emailsSent: Int, tries: Int, createdAt: Int64, expiresAt: Int64) {
        self.id = id
        self.handleHash = handleHash
        self.payloadSealed = payloadSealed
        self.payloadKeyId = payloadKeyId
        self.memberRecordIds = memberRecordIds
        self.codeHash = codeHash
        self.codeExpiresAt = codeExpiresAt
        self.emailsSent = emailsSent
        self.tries = tries
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
