import Foundation
import Logging
import Personnummer
import PortvaktCore
import PortvaktModels

/// What the member directory reads and writes: an organisation's records, each write with its effects on the accounts holding them in one transaction.
public protocol MemberDirectoryStore: Sendable {
    func memberRecords(organisationID: String, filter: MemberRecordFilter?, offset: Int, limit: Int) async throws -> (total: Int, records: [MemberRecord])
    func memberRecords(organisationID: String) async throws -> [MemberRecord]
    func memberRecord(id: String) async throws -> MemberRecord?
    func deleteMemberRecord(
        _ before: MemberRecord, reason: String, audit: @escaping @Sendable (MemberRecordWriteEffects) -> [AuditEvent], now: Date
    ) async throws -> MemberRecordWriteEffects?
    func writeMemberRecords(
        adding additions: [MemberRecord], changing changes: [MemberRecordChange], reason: String,
        audit: @escaping @Sendable (MemberRecordWriteEffects) -> [AuditEvent], now: Date
    ) async throws -> (written: [MemberRecord], effects: MemberRecordWriteEffects)
    func user(id: String) async throws -> User?
    func organisation(id: String) async throws -> Organisation?
}

/// An organisation's member records as its member system (SCIM), its import files and its
/// operators keep them (issue 45, S22). Every method acts on one organisation's records only:
/// another organisation's record is not found.
///
/// A personnummer is validated, sealed for its record and blind-indexed at once, in the form a
/// BankID or Vipps login looks it up (``IdentityLinker``), and never returned, logged or audited.
/// A phone number is stored in E.164, as a Vipps login's is compared. Uniqueness per
/// organisation (externalId, userName, personnummer) is the database's: a refusal is
/// ``DirectoryError/Kind/uniqueness``.
///
/// Concurrency: each write is one transaction. A change is planned on the record as read and
/// written by one conditional UPDATE on its version: `If-Match` is that version; without it, a
/// change that lost a race is planned again on the new version.
public struct MemberDirectory: Sendable {
    let store: any MemberDirectoryStore
    let vault: PersonnummerVault
    let personnummerContext: Personnummer.Context
    let leaving: MembershipEnding
    let mailer: Mailer
    let logger: Logger
    let now: @Sendable () -> Date

    public init(
        store: any MemberDirectoryStore, vault: PersonnummerVault, personnummerContext: Personnummer.Context, leaving: MembershipEnding, mailer: Mailer,
        logger: Logger, now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.vault = vault
        self.personnummerContext = personnummerContext
        self.leaving = leaving
        self.mailer = mailer
        self.logger = logger
        self.now = now
    }

    /// How often a change without `If-Match` is planned again after losing a race.
    static let attempts = 3

    /// Adds a member (SCIM POST). With `active: false` the record is made ended.
    /// - Throws: ``DirectoryError``: an invalid value; a value another record of the organisation
    ///   has; an unknown organisation (`notFound`).
    public func create(_ entry: MemberEntry, in organisationID: String, by actor: DirectoryActor) async throws -> DirectoryMember {
        let valid = try entry.validated(context: personnummerContext)
        let now = now()
        let record = try newRecord(valid, in: organisationID, now: now)
        let events = [recordEvent(.memberDirectoryCreated, record: record, actor: actor, at: now, details: ["role": record.role.rawValue])]
        try await write(adding: [record], changing: [], in: organisationID, by: actor, events: events, now: now)
        logger.info("Member record created", metadata: ["member": "\(record.id)", "organisation": "\(organisationID)", "actor": "\(actor.kind)"])
        return DirectoryMember(record)
    }

    /// The organisation's member with this id; nil for an unknown id or another organisation's record.
    public func member(id: String, in organisationID: String) async throws -> DirectoryMember? {
        try await record(id: id, in: organisationID).map(DirectoryMember.init)
    }

    /// A page of the organisation's members, oldest first, ended ones too (SCIM ListResponse).
    /// - Parameters:
    ///   - startIndex: 1-based; below 1 counts as 1.
    ///   - count: 0…1000 (clamped); 0 asks only for the total.
    /// - Returns: how many members match the filter, and the page.
    public func members(
        in organisationID: String, filter: DirectoryFilter?, startIndex: Int, count: Int
    ) async throws -> (total: Int, page: [DirectoryMember]) {
        let (total, records) = try await store.memberRecords(
            organisationID: organisationID, filter: filter?.storeFilter, offset: max(startIndex, 1) - 1, limit: min(max(count, 0), 1000)
        )
        return (total, records.map(DirectoryMember.init))
    }

    /// Replaces every attribute of the member (SCIM PUT; a PATCH changes ``DirectoryMember/entry``
    /// and calls this). An entry without a name keeps the record's full name. `active` true →
    /// false ends the membership (``MembershipEnding``); false → true makes the record claimable
    /// again. Writing what the record holds already changes nothing (not even the version).
    /// - Parameter ifVersion: `If-Match`: another current version throws `versionMismatch` and
    ///   nothing is written.
    /// - Throws: ``DirectoryError``: not found; version mismatch; an invalid value; uniqueness.
    public func replace(
        id: String, with entry: MemberEntry, ifVersion: Int?, in organisationID: String, by actor: DirectoryActor
    ) async throws -> DirectoryMember {
        let valid = try entry.validated(context: personnummerContext)
        var sealed: ProtectedPersonnummer?
        if case .set(let number) = valid.personnummer {
            sealed = try vault.protect(number, record: MemberRecord.personnummerContext(recordID: id))
        }
        for _ in 0..<Self.attempts {
            guard let before = try await record(id: id, in: organisationID) else { throw DirectoryError.memberNotFound }
            if let ifVersion, Int(before.version) != ifVersion { throw DirectoryError.versionMismatch(current: before.version) }
            guard let planned = PlannedChange(before: before, to: valid, blindIndex: vault.blindIndex) else { return DirectoryMember(before) }
            let now = now()
            let change = MemberRecordChange(before: before, values: planned.entry.values, personnummer: planned.write(sealed: sealed))
            do {
                let written = try await write(
                    adding: [], changing: [change], in: organisationID, by: actor, events: changeEvents(planned, actor: actor, at: now), now: now
                )
                logger.info("Member record changed", metadata: [
                    "member": "\(id)", "organisation": "\(organisationID)", "actor": "\(actor.kind)", "fields": "\(planned.fields.joined(separator: ","))",
                ])
                return DirectoryMember(written[0])
            } catch let error as StoreError where error.isNotFound {
                continue  // changed or deleted since it was read: read it again
            }
        }
        throw DirectoryError(.versionMismatch, reason: "the member kept changing while this change was written; try again")
    }

    /// Deletes the member's record (SCIM DELETE): the membership ends as for `active: false`,
    /// then the row goes.
    /// - Throws: ``DirectoryError``: not found; version mismatch.
    public func delete(id: String, ifVersion: Int?, in organisationID: String, by actor: DirectoryActor) async throws {
        for _ in 0..<Self.attempts {
            guard let before = try await record(id: id, in: organisationID) else { throw DirectoryError.memberNotFound }
            if let ifVersion, Int(before.version) != ifVersion { throw DirectoryError.versionMismatch(current: before.version) }
            let now = now()
            let events = [recordEvent(.memberDirectoryDeleted, record: before, actor: actor, at: now)]
            let effects = try await store.deleteMemberRecord(
                before, reason: MembershipEnding.sessionReason,
                audit: { [self] done in events + effectEvents(done, in: organisationID, actor: actor, at: now) }, now: now
            )
            if let effects {
                leaving.log(effects.ended, in: organisationID, source: actor.source)
                logger.info("Member record deleted", metadata: ["member": "\(id)", "organisation": "\(organisationID)", "actor": "\(actor.kind)"])
                return
            }
        }
        throw DirectoryError(.versionMismatch, reason: "the member kept changing while it was being deleted; try again")
    }
}

extension MemberDirectory {
    /// The organisation's record with this id.
    func record(id: String, in organisationID: String) async throws -> MemberRecord? {
        guard !id.isEmpty, id.utf8.count <= 64, let record = try await store.memberRecord(id: id), record.organisationId == organisationID else {
            return nil
        }
        return record
    }

    /// A new record of the entry, its personnummer sealed for it; named by its user name when
    /// the entry has no name.
    func newRecord(_ valid: ValidEntry, in organisationID: String, now: Date) throws -> MemberRecord {
        let id = UUID().uuidString.lowercased()
        var values = valid.values
        if values.fullName == nil { values.fullName = values.userName }
        var sealed: ProtectedPersonnummer?
        if case .set(let number) = valid.personnummer {
            sealed = try vault.protect(number, record: MemberRecord.personnummerContext(recordID: id))
        }
        return MemberRecord(id: id, organisationID: organisationID, values: values, personnummer: sealed, now: now)
    }

    /// Writes in one transaction, with `events` and the events of what the write did to accounts.
    @discardableResult
    func write(
        adding additions: [MemberRecord], changing changes: [MemberRecordChange], in organisationID: String, by actor: DirectoryActor,
        events: [AuditEvent], now: Date
    ) async throws -> [MemberRecord] {
        let roles = Dictionary(additions.map { ($0.id, $0.role) } + changes.map { ($0.before.id, $0.values.role) }) { _, last in last }
        do {
            let (written, effects) = try await store.writeMemberRecords(
                adding: additions, changing: changes, reason: MembershipEnding.sessionReason,
                audit: { [self] done in
                    events + effectEvents(done, in: organisationID, actor: actor, at: now)
                        + Self.grants(done, roles: roles).map { grantEvent($0, in: organisationID, actor: actor, at: now) }
                }, now: now
            )
            leaving.log(effects.ended, in: organisationID, source: actor.source)
            await tell(Self.grants(effects, roles: roles), in: organisationID)
            return written
        } catch let error as StoreError {
            if let refusal = DirectoryError.from(error) { throw refusal }
            throw error
        }
    }
}

extension PlannedChange {
    /// The store's write of the number; `sealed` is the entry's number sealed for the record.
    func write(sealed: ProtectedPersonnummer?) -> PersonnummerWrite {
        switch personnummer {
        case .keep: .keep
        case .remove: .remove
        case .set: sealed.map(PersonnummerWrite.set) ?? .keep
        }
    }
}
