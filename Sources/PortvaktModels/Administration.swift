import Foundation
import PortvaktCore

/// What needs an administrator's attention in one organisation.
public struct OrganisationAttention: Sendable, Hashable {
    public let openConflicts: Int
    public let deadDeliveries: Int
    /// Members whose membership lasts (an ended record is not counted) and whose record has no number.
    public let membersWithoutPersonnummer: Int
    public let membersWithDevices: Int

    package init(openConflicts: Int, deadDeliveries: Int, membersWithoutPersonnummer: Int, membersWithDevices: Int) {
        self.openConflicts = openConflicts
        self.deadDeliveries = deadDeliveries
        self.membersWithoutPersonnummer = membersWithoutPersonnummer
        self.membersWithDevices = membersWithDevices
    }
}

/// One audit event as the trail holds it: the event and its place in the hash chain.
public struct ChainedAuditEvent: Sendable, Hashable {
    public let sequence: Int64?
    public let event: AuditEvent

    package init(sequence: Int64?, event: AuditEvent) {
        self.sequence = sequence
        self.event = event
    }
}

/// How much of an account a merge would move: rows per kind.
public struct AccountHoldings: Sendable, Hashable {
    public let providers: [String]
    public let memberships: [Membership]
    public let devices: Int
    public let activities: Int
    public let claims: Int
    public let contacts: Int
    public let syncEntries: Int

    package init(providers: [String], memberships: [Membership], devices: Int, activities: Int, claims: Int, contacts: Int, syncEntries: Int) {
        self.providers = providers
        self.memberships = memberships
        self.devices = devices
        self.activities = activities
        self.claims = claims
        self.contacts = contacts
        self.syncEntries = syncEntries
    }
}

/// A one-time link to set a password, for the email of one member record.
public struct PasswordInvite: Sendable, Hashable, Codable {
    public let tokenHash: Data
    public let memberRecordId: String
    /// The account holding the record when the invitation was made; nil: none did.
    public let userId: String?
    public let email: String
    public let createdBy: String
    public let createdAt: Int64
    public let expiresAt: Int64
    public let usedAt: Int64?

    public init(tokenHash: Data, memberRecordID: String, userID: String?, email: String, createdBy: String, now: Date, lifetime: TimeInterval) {
        self.tokenHash = tokenHash
        memberRecordId = memberRecordID
        userId = userID
        self.email = email
        self.createdBy = createdBy
        createdAt = now.millisecondsSince1970
        expiresAt = now.addingTimeInterval(lifetime).millisecondsSince1970
        usedAt = nil
    }
}
