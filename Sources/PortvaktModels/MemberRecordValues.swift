import Foundation
import PortvaktCore

// The member directory's values (issue 45): what it writes to member records, and what a write
// did to the accounts holding them. The store's functions are in PortvaktStore+MemberDirectory.swift.

/// Every attribute of a member record that the member directory (SCIM, import files) writes.
public struct MemberRecordValues: Sendable, Hashable {
    public var externalRef: String?
    public var userName: String?
    public var givenName: String?
    public var familyName: String?
    /// nil: the record keeps the full name it has (the member system sent no name).
    public var fullName: String?
    /// Lowercased.
    public var email: String?
    /// E.164.
    public var phone: String?
    public var role: Role
    public var memberNumber: String?
    public var active: Bool

    public init(
        externalRef: String?, userName: String?, givenName: String?, familyName: String?, fullName: String?, email: String?,
        phone: String?, role: Role, memberNumber: String?, active: Bool
    ) {
        self.externalRef = externalRef
        self.userName = userName
        self.givenName = givenName
        self.familyName = familyName
        self.fullName = fullName
        self.email = email
        self.phone = phone
        self.role = role
        self.memberNumber = memberNumber
        self.active = active
    }
}

/// What a write does to a record's personnummer.
public enum PersonnummerWrite: Sendable, Hashable {
    case keep
    case remove
    /// Sealed for the record's id (``MemberRecord/personnummerContext(recordID:)``).
    case set(ProtectedPersonnummer)
}

/// A change of one record, planned on the record as it was read: it is written only while the
/// record's version is still that one.
public struct MemberRecordChange: Sendable {
    public let before: MemberRecord
    public let values: MemberRecordValues
    public let personnummer: PersonnummerWrite

    public init(before: MemberRecord, values: MemberRecordValues, personnummer: PersonnummerWrite) {
        self.before = before
        self.values = values
        self.personnummer = personnummer
    }

    /// The membership ends with this change (active → not active).
    package var ends: Bool { before.isActive && !values.active }
}

/// What ending memberships did to one account.
public struct EndedAccess: Sendable, Hashable {
    public let userID: String
    /// The organisations where the account lost a role.
    public let organisationIDs: [String]
    /// The account has no membership left anywhere: its sessions (and with them every refresh
    /// token and portal session) ended, its devices were revoked and its passkeys removed.
    public let leftWithNone: Bool
    public let sessions: Int
    public let devices: Int
    public let passkeys: Int

    public init(userID: String, organisationIDs: [String], leftWithNone: Bool, sessions: Int, devices: Int, passkeys: Int) {
        self.userID = userID
        self.organisationIDs = organisationIDs
        self.leftWithNone = leftWithNone
        self.sessions = sessions
        self.devices = devices
        self.passkeys = passkeys
    }
}

/// What a write to the member directory did beyond the records themselves, for its audit events.
public struct MemberRecordWriteEffects: Sendable {
    public var ended: [EndedAccess] = []
    /// Accounts that took a record because they carry its personnummer (as a login by that number
    /// would link them): (account, record).
    public var linked: [(userID: String, recordID: String)] = []
    /// Accounts whose record now carries a number that is not theirs (or who have none): their
    /// membership on it ended and the organisation's review has an entry (issue 58).
    public var detached: [DetachedHolder] = []
    /// Accounts whose record's role changed to one above peer mentor: (account, record).
    public var promoted: [(userID: String, recordID: String)] = []

    public init() {}
}

/// An account that held a record until the record's number said it is someone else's.
public struct DetachedHolder: Sendable, Hashable {
    public let userID: String
    public let recordID: String
    public let organisationID: String

    public init(userID: String, recordID: String, organisationID: String) {
        self.userID = userID
        self.recordID = recordID
        self.organisationID = organisationID
    }
}

/// The one attribute a directory listing is filtered on (SCIM `filter` with `eq`).
public enum MemberRecordFilter: Sendable, Hashable {
    /// Compared without case.
    case userName(String)
    case externalRef(String)
    /// Compared without case.
    case email(String)
}

extension MemberRecord {
    /// A new record of the member directory at version 1; ended at once when `values.active` is false.
    public init(id: String, organisationID: String, values: MemberRecordValues, personnummer: ProtectedPersonnummer?, now: Date) {
        let time = now.millisecondsSince1970
        self.init(
            id: id, organisationId: organisationID, externalRef: values.externalRef,
            fullName: values.fullName ?? values.userName ?? "", email: values.email, phone: values.phone, role: values.role,
            personnummerSealed: personnummer?.sealed.combined, personnummerKeyId: personnummer?.sealed.keyID,
            personnummerIndex: personnummer?.index, createdAt: time, updatedAt: time,
            userName: values.userName, givenName: values.givenName, familyName: values.familyName, memberNumber: values.memberNumber,
            endedAt: values.active ? nil : time, version: 1
        )
    }

    /// The record's attributes as the directory writes them (the full name as it is).
    public var values: MemberRecordValues {
        MemberRecordValues(
            externalRef: externalRef, userName: userName, givenName: givenName, familyName: familyName, fullName: fullName,
            email: email, phone: phone, role: role, memberNumber: memberNumber, active: isActive
        )
    }
}
