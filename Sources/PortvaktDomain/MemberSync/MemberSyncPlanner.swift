import Foundation
import Personnummer
import PortvaktCore
import PortvaktModels

/// What a BankID or Vipps login brought about the person's national identity number.
public enum ProvidedPersonnummer: Sendable {
    case number(Personnummer)
    /// The provider gave none (Vipps without the `nin` scope approved).
    case absent
    /// The provider gave one that fails validation, or a synthetic one in production.
    case invalid
}

/// Decides, for each member record linked to the user, what a login's personnummer does to it
/// (DESIGN.md, "Member sync after login"): `updated` when the record had none, `confirmed` when
/// it has the same, `conflict` when it has another (never overwritten; the login's number is
/// sealed in the entry for an administrator), `absent` and `invalid` as the provider gave. An
/// update for an organisation with its own member system also goes to the outbox.
public struct MemberSyncPlanner: Sendable {
    let store: any MemberSyncStore
    let vault: PersonnummerVault
    let cipher: FieldCipher
    /// Whether the organisation with this slug has its own member system (an outbox to fill).
    let hasMemberSystem: @Sendable (_ slug: String) async -> Bool

    public init(store: any MemberSyncStore, vault: PersonnummerVault, cipher: FieldCipher, hasMemberSystem: @escaping @Sendable (String) async -> Bool) {
        self.store = store
        self.vault = vault
        self.cipher = cipher
        self.hasMemberSystem = hasMemberSystem
    }

    public func plan(for user: User, provided: ProvidedPersonnummer, source: String, now: Date) async throws -> MemberSyncWrites {
        var writes = MemberSyncWrites()
        var index: String?
        if case .number(let number) = provided { index = vault.blindIndex(number) }
        var updatedOrganisations = Set<String>()
        for membership in try await store.memberships(userID: user.id) {
            guard let recordID = membership.memberRecordId, let record = try await store.memberRecord(id: recordID),
                  !writes.entries.contains(where: { $0.memberRecordId == recordID })
            else { continue }
            let entryID = UUID().uuidString.lowercased()
            let outcome: MemberSyncOutcome
            var sealedForEntry: SealedValue?
            switch provided {
            case .absent:
                outcome = .absent
            case .invalid:
                outcome = .invalid
            case .number(let number):
                if let existing = record.personnummer?.index {
                    outcome = existing == index ? .confirmed : .conflict
                } else if try await otherRecordHolds(index!, in: record)
                            || updatedOrganisations.contains(record.organisationId) {
                    // Another record of the organisation has the number, or takes it in this very
                    // login (the person holds two of its records): an administrator decides which.
                    outcome = .conflict
                } else {
                    outcome = .updated
                    writes.personnummerUpdates.append((record.id, try vault.protect(number, record: MemberRecord.personnummerContext(recordID: record.id))))
                    updatedOrganisations.insert(record.organisationId)
                    if let message = try await outboxMessage(for: record, number: number, source: source, now: now) {
                        writes.outbox.append(message)
                    }
                }
                if outcome == .conflict {
                    sealedForEntry = try vault.seal(number, record: MemberSyncEntry.vaultRecord(entryID: entryID))
                }
            }
            writes.entries.append(MemberSyncEntry(
                id: entryID, occurredAt: now, organisationID: record.organisationId, memberRecordID: record.id, userID: user.id,
                source: source, outcome: outcome, loginPersonnummer: sealedForEntry
            ))
            writes.audit.append(AuditEvent(
                occurredAt: now, action: .memberSync(outcome), outcome: outcome.rawValue,
                actorUserID: UUID(uuidString: user.id), organisationID: UUID(uuidString: record.organisationId),
                subjectType: "member", subjectID: record.id, source: source,
                details: outcome == .confirmed ? ["note": "confirmed, no change"] : [:]
            ))
        }
        return writes
    }

    /// Whether another record of the organisation has this number already, an ended one too (the
    /// unique index would refuse it; an administrator must sort the records out).
    private func otherRecordHolds(_ index: String, in record: MemberRecord) async throws -> Bool {
        try await store.memberRecords(personnummerIndex: index, includingEnded: true)
            .contains { $0.organisationId == record.organisationId && $0.id != record.id }
    }

    /// The message for the organisation's own member system, when it has one.
    public func outboxMessage(for record: MemberRecord, number: Personnummer, source: String, now: Date) async throws -> OutboxMessage? {
        guard let organisation = try await store.organisation(id: record.organisationId),
              await hasMemberSystem(organisation.slug)
        else { return nil }
        let id = UUID().uuidString.lowercased()
        let payload = MemberUpdate(
            event: MemberUpdate.personnummerSet, organisation: organisation.slug, memberID: record.id, memberRef: record.externalRef,
            personnummer: number.digits, source: source, occurredAt: now.formatted(.iso8601)
        )
        let sealed = try cipher.seal(try JSONEncoder().encode(payload), context: OutboxMessage.payloadContext(messageID: id))
        return OutboxMessage(id: id, organisationID: record.organisationId, memberRecordID: record.id, event: payload.event, payload: sealed, now: now)
    }
}

/// The body an organisation's member system receives.
public struct MemberUpdate: Codable, Sendable {
    public static let personnummerSet = "member.personnummer.set"

    public let event: String
    public let organisation: String
    public let memberID: String
    public let memberRef: String?
    public let personnummer: String
    public let source: String
    public let occurredAt: String

    public init(event: String, organisation: String, memberID: String, memberRef: String?, personnummer: String, source: String, occurredAt: String) {
        self.event = event
        self.organisation = organisation
        self.memberID = memberID
        self.memberRef = memberRef
        self.personnummer = personnummer
        self.source = source
        self.occurredAt = occurredAt
    }

    enum CodingKeys: String, CodingKey {
        case event, organisation, personnummer, source
        case memberID = "member_id"
        case memberRef = "member_ref"
        case occurredAt = "occurred_at"
    }
}

extension AuditAction {
    /// What a login's personnummer did to a member record.
    static func memberSync(_ outcome: MemberSyncOutcome) -> AuditAction {
        switch outcome {
        case .updated: .personnummerUpdated
        case .confirmed: .personnummerConfirmed
        case .conflict: .personnummerConflict
        case .absent: .personnummerAbsent
        case .invalid: .personnummerInvalid
        }
    }
}
