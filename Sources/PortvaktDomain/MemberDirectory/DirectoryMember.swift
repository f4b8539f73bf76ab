import Foundation
import PortvaktCore
import PortvaktModels

/// A member record as the directory shows it: never the personnummer, only whether there is one.
public struct DirectoryMember: Sendable, Equatable {
    /// The record's id (SCIM `id`).
    public let id: String
    public let organisationID: String
    public let externalID: String?
    /// Nil only for records made before the directory (the development seed).
    public let userName: String?
    public let givenName: String?
    public let familyName: String?
    public let fullName: String
    public let email: String?
    public let phone: String?
    public let role: Role
    public let active: Bool
    public let memberNumber: String?
    public let personnummerOnRecord: Bool
    /// SCIM `meta.version` (ETag `W/"<version>"`): one more on every change.
    public let version: Int
    public let createdAt: Date
    public let updatedAt: Date

    init(_ record: MemberRecord) {
        id = record.id
        organisationID = record.organisationId
        externalID = record.externalRef
        userName = record.userName
        givenName = record.givenName
        familyName = record.familyName
        fullName = record.fullName
        email = record.email
        phone = record.phone
        role = record.role
        active = record.isActive
        memberNumber = record.memberNumber
        personnummerOnRecord = record.personnummer != nil
        version = Int(record.version)
        createdAt = Date(millisecondsSince1970: record.createdAt)
        updatedAt = Date(millisecondsSince1970: record.updatedAt)
    }

    /// The entry that writes this member back unchanged (the personnummer kept): what a SCIM
    /// PATCH starts from. A record made before the directory has no user name: its email, else
    /// its external id, stands in.
    public var entry: MemberEntry {
        MemberEntry(
            externalID: externalID ?? id, userName: userName ?? email ?? externalID ?? id, givenName: givenName, familyName: familyName,
            email: email, phone: phone, role: role, active: active, memberNumber: memberNumber, personnummer: .keep
        )
    }
}

/// The one attribute a listing is filtered on (SCIM `filter` with `eq`).
public enum DirectoryFilter: Sendable, Equatable {
    /// Compared without case, as SCIM's `userName` is.
    case userName(String)
    case externalID(String)
    /// Compared without case.
    case email(String)

    var storeFilter: MemberRecordFilter {
        switch self {
        case .userName(let name): .userName(name)
        case .externalID(let id): .externalRef(id)
        case .email(let email): .email(email)
        }
    }
}
