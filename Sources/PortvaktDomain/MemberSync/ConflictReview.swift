import Foundation
import Personnummer
import PortvaktCore
import PortvaktModels

/// An organisation administrator's review of the member-sync log: one entry (numbers masked),
/// the numbers in full, and the decision on an open personnummer conflict: keep the member
/// record's number, or take the login's into the record (and send it to the member system).
/// Every operation enforces its policy (``ActionPolicy``) itself; the JSON API and the portal
/// both come here, and both are audited with their source.
public struct ConflictReview: Sendable {
    let store: any ConflictReviewStore
    let vault: PersonnummerVault
    let planner: MemberSyncPlanner
    let now: @Sendable () -> Date

    public init(store: any ConflictReviewStore, vault: PersonnummerVault, planner: MemberSyncPlanner, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.vault = vault
        self.planner = planner
        self.now = now
    }

    /// Who may read the log at all (masked): the organisation's administrators.
    public static let reviewers: Set<Role> = [.orgAdmin]

    public enum Decision: String, Sendable {
        /// Keep the member record's number.
        case member
        /// Take the login's number into the record.
        case login

        public var resolution: String { self == .login ? "took_login" : "kept_member" }
    }

    /// An entry and what it shows: both numbers masked (`150586*****`), or in full after a reveal.
    public struct View: Sendable {
        public let entry: MemberSyncEntry
        public let record: MemberRecord?
        public let memberNumber: String?
        public let loginNumber: String?
        public let full: Bool
    }

    /// The organisation's sync log, newest first, numbers masked; optionally one outcome or status.
    public func list(in organisation: OrganisationRoles, outcome: MemberSyncOutcome?, status: String?, by actor: Actor) async throws -> [View] {
        try actor.require(Self.reviewers, in: organisation)
        var views: [View] = []
        for entry in try await store.memberSyncEntries(organisationID: organisation.organisationID, outcome: outcome, status: status, limit: 500) {
            views.append(try await masked(entry))
        }
        return views
    }

    /// The entry with `id` in `organisation`, for one of its administrators.
    /// - Throws: ``DomainError/notAllowed`` for anyone else; ``DomainError/notFound(_:)`` for an
    ///   unknown id or another organisation's entry (which reads as unknown).
    public func entry(_ id: String, in organisation: OrganisationRoles, by actor: Actor) async throws -> MemberSyncEntry {
        try actor.require(Self.reviewers, in: organisation)
        guard id.utf8.count <= 64, let entry = try await store.memberSyncEntry(id: id), entry.organisationId == organisation.organisationID else {
            throw DomainError.notFound("sync entry")
        }
        return entry
    }

    /// The entry with its numbers masked.
    public func masked(_ entry: MemberSyncEntry) async throws -> View {
        try await view(entry, full: false)
    }

    /// The entry with its numbers in full, audited `member.personnummer.viewed` with `source`.
    /// - Throws: ``DomainError/stepUpRequired(_:)`` without a fresh BankID or Vipps login.
    public func reveal(_ entry: MemberSyncEntry, in organisation: OrganisationRoles, by actor: Actor, source: String) async throws -> View {
        try actor.authorize(.personnummerReveal, in: organisation, at: now())
        guard entry.organisationId == organisation.organisationID else { throw DomainError.notFound("sync entry") }
        try await store.append(AuditEvent(
            occurredAt: now(), action: .personnummerViewed, outcome: "success", actorUserID: UUID(uuidString: actor.userID),
            organisationID: UUID(uuidString: organisation.organisationID), subjectType: "member_sync", subjectID: entry.id, source: source
        ))
        return try await view(entry, full: true)
    }

    /// Settles an open conflict with `choice` (`member` or `login`); nothing changes when refused.
    /// - Throws: ``DomainError``: the policy (role, then step-up) first, then an unknown choice,
    ///   then ``DomainError/conflictNotOpen``, ``DomainError/heldByAnotherPerson`` or
    ///   ``DomainError/numberHeldElsewhere``.
    public func resolve(_ entry: MemberSyncEntry, keep choice: String?, in organisation: OrganisationRoles, by actor: Actor) async throws -> MemberSyncEntry {
        try actor.authorize(.conflictResolve, in: organisation, at: now())
        guard let decision = choice.flatMap(Decision.init(rawValue:)) else { throw DomainError.invalidInput("keep must be member or login.") }
        guard entry.organisationId == organisation.organisationID, entry.outcome == .conflict, entry.status == "open",
              let recordID = entry.memberRecordId, let record = try await store.memberRecord(id: recordID)
        else { throw DomainError.conflictNotOpen }
        let now = now()
        var writes = MemberSyncWrites()
        if decision == .login, let sealed = entry.loginPersonnummer {
            let number = try vault.open(sealed, record: MemberSyncEntry.vaultRecord(entryID: entry.id))
            // The record's account has another person's number, or none verified: the login's is
            // not known to be this account's (a record's number is always its holder's: LinkingRule).
            if let holder = try await store.user(holdingAnyOf: [record]), holder.personnummer?.index != vault.blindIndex(number) {
                throw DomainError.heldByAnotherPerson
            }
            // Ended records too: the organisation's unique index counts them.
            if try await store.memberRecords(personnummerIndex: vault.blindIndex(number), includingEnded: true)
                .contains(where: { $0.organisationId == record.organisationId && $0.id != record.id }) {
                throw DomainError.numberHeldElsewhere
            }
            writes.personnummerUpdates.append((record.id, try vault.protect(number, record: MemberRecord.personnummerContext(recordID: record.id))))
            if let message = try await planner.outboxMessage(for: record, number: number, source: "admin-review", now: now) {
                writes.outbox.append(message)
            }
        }
        writes.audit.append(AuditEvent(
            occurredAt: now, action: .personnummerConflictResolved, outcome: decision.resolution, actorUserID: UUID(uuidString: actor.userID),
            organisationID: UUID(uuidString: organisation.organisationID), subjectType: "member", subjectID: record.id, source: "admin-review",
            details: ["entry": entry.id]
        ))
        guard try await store.resolveConflict(entryID: entry.id, resolution: decision.resolution, by: actor.userID, writes: writes, now: now),
              let resolved = try await store.memberSyncEntry(id: entry.id)
        else { throw DomainError.conflictNotOpen }
        return resolved
    }

    private func view(_ entry: MemberSyncEntry, full: Bool) async throws -> View {
        let record = try await entry.memberRecordId.asyncFlatMap { try await store.memberRecord(id: $0) }
        let memberNumber = try record.flatMap { record in
            try record.personnummer.map { try vault.open($0.sealed, record: MemberRecord.personnummerContext(recordID: record.id)) }
        }
        let loginNumber = try entry.loginPersonnummer.map { try vault.open($0, record: MemberSyncEntry.vaultRecord(entryID: entry.id)) }
        let show = { (number: Personnummer?) in number.map { full ? $0.digits : $0.masked } }
        return View(entry: entry, record: record, memberNumber: show(memberNumber), loginNumber: show(loginNumber), full: full)
    }
}

extension Optional {
    func asyncFlatMap<T>(_ transform: (Wrapped) async throws -> T?) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
