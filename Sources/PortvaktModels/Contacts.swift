import Foundation
import PortvaktCore

/// A person a peer mentor supports. The name is in the clear (lists show it); the details
/// (phone, address, notes) are sealed for this row and opened only behind a step-up.
public struct Contact: Sendable, Hashable, Codable {
    public let id: String
    public let organisationId: String
    public let assignedUserId: String?
    public let displayName: String
    package let detailsSealed: Data
    package let detailsKeyId: String
    public let createdBy: String?
    public let createdAt: Int64

    public var details: SealedValue { SealedValue(keyID: detailsKeyId, combined: detailsSealed) }

    /// The associated data the details are sealed with, so they open only in their own row.
    public static func detailsContext(contactID: String) -> String { "contact-details:\(contactID)" }

    package init(id: String, organisationId: String, assignedUserId: String?, displayName: String, detailsSealed: Data, detailsKeyId: String, createdBy: String?, createdAt: Int64) {
        self.id = id
        self.organisationId = organisationId
        self.assignedUserId = assignedUserId
        self.displayName = displayName
        self.detailsSealed = detailsSealed
        self.detailsKeyId = detailsKeyId
        self.createdBy = createdBy
        self.createdAt = createdAt
    }
}
