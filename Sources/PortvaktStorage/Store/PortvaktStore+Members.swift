import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

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
