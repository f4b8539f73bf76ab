import Foundation
import PortvaktCore

/// A person on an organisation's member list, as the organisation registered them. Login links
/// users to these records; a login that matches none is refused.
public struct MemberRecord: Sendable, Hashable, Codable {
    public let id: String
    public let organisationId: String
    /// The id in the organisation's own member system, if any.
    public let externalRef: String?
    public let fullName: String
    public let email: String?
    public let phone: String?
    /// The role the organisation gave this member.
    public let role: Role
    package let personnummerSealed: Data?
    package let personnummerKeyId: String?
    package let personnummerIndex: String?
    /// The stored personnummer, sealed for this row's id, when it has one.
    public var personnummer: ProtectedPersonnummer? {
        ProtectedPersonnummer(sealed: personnummerSealed, keyID: personnummerKeyId, index: personnummerIndex)
    }
    public let createdAt: Int64
    public let updatedAt: Int64
    // Migration 27 (the member directory). Defaults, so records made before it read the same.
    /// The member system's user name (SCIM `userName`): the member number or the email.
    public internal(set) var userName: String? = nil
    public internal(set) var givenName: String? = nil
    public internal(set) var familyName: String? = nil
    public internal(set) var memberNumber: String? = nil
    /// When the membership ended (the member system said it is not active, or an import removed
    /// it); nil while it lasts. Logins and claims never link an ended record.
    public internal(set) var endedAt: Int64? = nil
    /// One more on every change the member directory makes (SCIM `meta.version`).
    public internal(set) var version: Int64 = 1
    // Migration 29.
    /// When an administrator suspended the membership; nil unless suspended. A suspended record
    /// is linked to nobody until the suspension is lifted.
    public internal(set) var suspendedAt: Int64? = nil
    /// The account that held the record when it was suspended, which lifting gives it back to.
    public internal(set) var suspendedUserId: String? = nil

    /// Whether the membership lasts (`endedAt` is nil).
    public var isActive: Bool { endedAt == nil }

    /// The encryption context (AAD) a member record's personnummer is sealed with, so a
    /// ciphertext copied to another row does not open.
    public static func personnummerContext(recordID: String) -> String {
        "member:\(recordID)"
    }

    package init(id: String, organisationId: String, externalRef: String?, fullName: String, email: String?, phone: String?, role: Role, personnummerSealed: Data?, personnummerKeyId: String?, personnummerIndex: String?, createdAt: Int64, updatedAt: Int64, userName: String? = nil, givenName: String? = nil, familyName: String? = nil, memberNumber: String? = nil, endedAt: Int64? = nil, version: Int64 = 1, suspendedAt: Int64? = nil, suspendedUserId: String? = nil) {
        self.id = id
        self.organisationId = organisationId
        self.externalRef = externalRef
        self.fullName = fullName
        self.email = email
        self.phone = phone
        self.role = role
        self.personnummerSealed = personnummerSealed
        self.personnummerKeyId = personnummerKeyId
        self.personnummerIndex = personnummerIndex
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.userName = userName
        self.givenName = givenName
        self.familyName = familyName
        self.memberNumber = memberNumber
        self.endedAt = endedAt
        self.version = version
        self.suspendedAt = suspendedAt
        self.suspendedUserId = suspendedUserId
    }
}

/// What an organisation knows about a new member.
public struct NewMemberRecord: Sendable {
    public var externalRef: String?
    public var fullName: String
    public var email: String?
    public var phone: String?
    public var role: Role

    public init(externalRef: String? = nil, fullName: String, email: String? = nil, phone: String? = nil, role: Role = .peerMentor) {
        self.externalRef = externalRef
        self.fullName = fullName
        self.email = email
        self.phone = phone
        self.role = role
    }
}
