import Foundation
import PortvaktCore

/// A BankID order started by the server, as stored: the sealed provider secrets and the app's
/// request, and where the order stands.
public struct BankIDOrderRecord: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Codable {
        case pending, complete, failed
    }

    public let id: String
    public let sessionHash: Data
    public let clientId: String
    package let payloadSealed: Data
    package let payloadKeyId: String
    public let status: Status
    /// The provider's last hint for a failed order (`userCancel`, `expiredTransaction`, …).
    public let hintCode: String?
    public let userId: String?
    public let startedAt: Int64
    public let expiresAt: Int64
    public let finishedAt: Int64?

    public var payload: SealedValue { SealedValue(keyID: payloadKeyId, combined: payloadSealed) }
    public var startedDate: Date { Date(millisecondsSince1970: startedAt) }
    public var expiresDate: Date { Date(millisecondsSince1970: expiresAt) }

    package init(id: String, sessionHash: Data, clientId: String, payloadSealed: Data, payloadKeyId: String, status: Status, hintCode: String?, userId: String?, startedAt: Int64, expiresAt: Int64, finishedAt: Int64?) {
        self.id = id
        self.sessionHash = sessionHash
        self.clientId = clientId
        self.payloadSealed = payloadSealed
        self.payloadKeyId = payloadKeyId
        self.status = status
        self.hintCode = hintCode
        self.userId = userId
        self.startedAt = startedAt
        self.expiresAt = expiresAt
        self.finishedAt = finishedAt
    }
}
