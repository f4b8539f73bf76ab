import Foundation
import Personnummer
import PortvaktCore
import PortvaktStorage

/// An administrator's decision on an open personnummer conflict: keep the member record's number,
/// or take the login's into the record (and send it to the member system). Audited with the
/// decision; the JSON API and the portal both decide through here.
struct ConflictResolver: Sendable {
    let broker: Broker

    enum Decision: String, Sendable {
        /// Keep the member record's number.
        case member
        /// Take the login's number into the record.
        case login

        var resolution: String { self == .login ? "took_login" : "kept_member" }
    }

    enum Refusal: Error, Sendable {
        /// Resolved already, or not a conflict.
        case notOpen
        /// Another record of the organisation holds the login's number: merge those first.
        case numberHeldElsewhere
        /// The record's account has another personnummer: the login was someone else's.
        case heldByAnotherPerson
    }

    /// - Throws: ``Refusal`` when the entry cannot be resolved this way; nothing is changed.
    func resolve(_ entry: MemberSyncEntry, keep decision: Decision, by adminID: String, organisationID: String) async throws -> MemberSyncEntry {
        guard entry.outcome == .conflict, entry.status == "open", let recordID = entry.memberRecordId,
              let record = try await broker.store.memberRecord(id: recordID)
        else { throw Refusal.notOpen }
        let now = broker.now()
        var writes = MemberSyncWrites()
        if decision == .login, let sealed = entry.loginPersonnummer {
            let vault = broker.keys.vault
            let number = try vault.open(sealed, record: MemberSyncEntry.vaultRecord(entryID: entry.id))
            // The record's account has another person's number: the login's is not this member's.
            if let held = try await broker.store.user(holdingAnyOf: [record])?.personnummer?.index, held != vault.blindIndex(number) {
                throw Refusal.heldByAnotherPerson
            }
            if try await broker.store.memberRecords(personnummerIndex: vault.blindIndex(number))
                .contains(where: { $0.organisationId == record.organisationId && $0.id != record.id }) {
                throw Refusal.numberHeldElsewhere
            }
            writes.personnummerUpdates.append((record.id, try vault.protect(number, record: MemberRecord.personnummerContext(recordID: record.id))))
            if let message = try await MemberSyncPlanner(broker: broker).outboxMessage(for: record, number: number, source: "admin-review", now: now) {
                writes.outbox.append(message)
            }
        }
        writes.audit.append(AuditEvent(
            occurredAt: now, action: "member.personnummer.conflict_resolved", outcome: decision.resolution, actorUserID: UUID(uuidString: adminID),
            organisationID: UUID(uuidString: organisationID), subjectType: "member", subjectID: record.id, source: "admin-review",
            details: ["entry": entry.id]
        ))
        guard try await broker.store.resolveConflict(entryID: entry.id, resolution: decision.resolution, by: adminID, writes: writes, now: now),
              let resolved = try await broker.store.memberSyncEntry(id: entry.id)
        else { throw Refusal.notOpen }
        return resolved
    }

    /// Records that an administrator saw an entry's numbers in full.
    func recordViewed(_ entry: MemberSyncEntry, by adminID: String, organisationID: String, source: String) async throws {
        try await broker.store.append(AuditEvent(
            occurredAt: broker.now(), action: "member.personnummer.viewed", outcome: "success", actorUserID: UUID(uuidString: adminID),
            organisationID: UUID(uuidString: organisationID), subjectType: "member_sync", subjectID: entry.id, source: source
        ))
    }

    /// The record's and the login's numbers of an entry, masked (`150586*****`) unless `full`.
    func numbers(of entry: MemberSyncEntry, full: Bool) async throws -> (record: MemberRecord?, member: String?, login: String?) {
        var record: MemberRecord?
        if let id = entry.memberRecordId { record = try await broker.store.memberRecord(id: id) }
        let vault = broker.keys.vault
        let memberNumber = try record.flatMap { record in
            try record.personnummer.map { try vault.open($0.sealed, record: MemberRecord.personnummerContext(recordID: record.id)) }
        }
        let loginNumber = try entry.loginPersonnummer.map { try vault.open($0, record: MemberSyncEntry.vaultRecord(entryID: entry.id)) }
        let show = { (number: Personnummer?) in number.map { full ? $0.digits : $0.masked } }
        return (record, show(memberNumber), show(loginNumber))
    }
}
