import Foundation
import PortvaktCore
import SQLKit

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
    let personnummerSealed: Data?
    let personnummerKeyId: String?
    let personnummerIndex: String?
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

extension PortvaktStore {
    /// Adds a member record. `personnummer` is sealed for this record's id by `seal`.
    /// - Throws: ``StoreError/duplicate(_:)`` when the organisation already has this personnummer
    ///   or external reference.
    public func createMemberRecord(
        organisationID: String,
        _ member: NewMemberRecord,
        personnummer seal: ((_ recordID: String) throws -> ProtectedPersonnummer)? = nil,
        now: Date = Date()
    ) async throws -> MemberRecord {
        let id = newID()
        let protected = try seal?(id)
        let record = MemberRecord(
            id: id, organisationId: organisationID, externalRef: member.externalRef, fullName: member.fullName,
            email: member.email, phone: member.phone, role: member.role,
            personnummerSealed: protected.map { $0.sealed.combined }, personnummerKeyId: protected?.sealed.keyID,
            personnummerIndex: protected?.index,
            createdAt: now.millisecondsSince1970, updatedAt: now.millisecondsSince1970
        )
        try await write { db in try await db.insert(into: "member_records").row(record).run() }
        return record
    }

    public func memberRecord(id: String) async throws -> MemberRecord? {
        try await read { db in
            try await db.select().column("*").from("member_records").where("id", .equal, id).first(as: MemberRecord.self)
        }
    }

    /// Member records with this personnummer blind index, across organisations, whose membership
    /// lasts: what a login may link (an ended record is never linked).
    public func memberRecords(personnummerIndex index: String) async throws -> [MemberRecord] {
        try await memberRecords(personnummerIndex: index, includingEnded: false)
    }

    /// Member records with this personnummer blind index, across organisations; with
    /// `includingEnded`, also those whose membership ended. The unique index per organisation
    /// counts ended records too: ask with `includingEnded` before giving a record a number.
    public func memberRecords(personnummerIndex index: String, includingEnded: Bool) async throws -> [MemberRecord] {
        try await read { db in
            var query = db.select().column("*").from("member_records").where("personnummer_index", .equal, index)
            if !includingEnded { query = query.where("ended_at", .is, SQLLiteral.null).where("suspended_at", .is, SQLLiteral.null) }
            return try await query.orderBy("created_at").all(as: MemberRecord.self)
        }
    }

    /// The organisation's member records, by name, ended ones too (``MemberRecord/isActive``).
    public func memberRecords(organisationID: String) async throws -> [MemberRecord] {
        try await read { db in
            try await db.select().column("*").from("member_records").where("organisation_id", .equal, organisationID)
                .orderBy("full_name").all(as: MemberRecord.self)
        }
    }

    /// Member records with this phone number (E.164), across organisations, whose membership
    /// lasts: what a login may link.
    public func memberRecords(phone: String) async throws -> [MemberRecord] {
        try await read { db in
            try await db.select().column("*").from("member_records").where("phone", .equal, phone).where("ended_at", .is, SQLLiteral.null)
                .where("suspended_at", .is, SQLLiteral.null)
                .orderBy("created_at").all(as: MemberRecord.self)
        }
    }
}
