import Foundation
import Personnummer
import PortvaktCore
import PortvaktStorage

/// Finds the user behind a BankID or Vipps login, as DESIGN.md orders it: the linked provider
/// account, then a user with the same personnummer, then member records with the same
/// personnummer or verified phone number (joining the user who already holds such a record).
/// Nobody is created without a member record.
///
/// Phone numbers are reassigned, mistyped and shared in families, so when the provider gives a
/// personnummer a phone match links only a record with no number whose holder (if any) has no
/// other number; any other phone match is not linked and goes to the organisation's review list.
struct IdentityLinker: Sendable {
    let store: PortvaktStore
    let vault: PersonnummerVault

    struct Login: Sendable {
        let provider: IdentityProvider
        let subject: String
        let personnummer: Personnummer?
        /// E.164, verified by the provider (Vipps).
        let phone: String?
        let name: String?
    }

    /// The user, or nil when no member record matches (the organisation has not registered them).
    func user(for login: Login, now: Date) async throws -> User? {
        // A concurrent first login of the same person makes the insert fail on a unique index;
        // the second pass then finds the winner's user.
        for attempt in 0..<2 {
            if let user = try await store.user(provider: login.provider, subject: login.subject) {
                try await store.recordLogin(provider: login.provider, subject: login.subject, now: now)
                return user
            }
            let index = login.personnummer.map(vault.blindIndex)
            do {
                if let index, let user = try await store.user(personnummerIndex: index) {
                    _ = try await store.linkIdentity(userID: user.id, provider: login.provider, subject: login.subject, now: now)
                    return user
                }
                var records: [MemberRecord] = []
                if let index { records = try await store.memberRecords(personnummerIndex: index) }
                if let phone = login.phone {
                    let byPhone = try await store.memberRecords(phone: phone).filter { candidate in !records.contains { $0.id == candidate.id } }
                    let (linkable, refused) = try await phoneMatches(byPhone, index: index)
                    records += linkable
                    if !refused.isEmpty { try await recordRefused(refused, login: login, now: now) }
                }
                guard let first = records.first else { return nil }
                if let holder = try await store.user(holdingAnyOf: records) {
                    _ = try await store.linkIdentity(userID: holder.id, provider: login.provider, subject: login.subject, now: now)
                    return holder
                }
                // An email that already names another account is left off: accounts are never
                // joined by email (an administrator merges them if they are one person).
                var email = first.email
                if let taken = email, try await store.user(email: taken) != nil { email = nil }
                return try await store.createMemberUser(
                    displayName: first.fullName, email: email,
                    personnummer: login.personnummer.map { number in { id in try vault.protect(number, record: "user:\(id)") } },
                    provider: login.provider, subject: login.subject, memberRecords: records, now: now
                )
            } catch let error as StoreError where error.isDuplicate && attempt == 0 {
                continue
            }
        }
        return nil
    }

    /// The phone-matched records a login with the personnummer `index` may link, and those it
    /// may not (the record or its holder has another number). Without a number, all may.
    private func phoneMatches(_ records: [MemberRecord], index: String?) async throws -> (linkable: [MemberRecord], refused: [MemberRecord]) {
        guard let index else { return (records, []) }
        var linkable: [MemberRecord] = [], refused: [MemberRecord] = []
        for record in records {
            var other = record.personnummer.map { $0.index != index } ?? false
            if !other, let holder = try await store.user(holdingAnyOf: [record]), let held = holder.personnummer?.index {
                other = held != index
            }
            if other { refused.append(record) } else { linkable.append(record) }
        }
        return (linkable, refused)
    }

    /// A refused phone match on the organisation's review list (a conflict entry holding the
    /// login's number sealed, as a sync conflict does), audited for the record and for the login.
    private func recordRefused(_ records: [MemberRecord], login: Login, now: Date) async throws {
        guard let number = login.personnummer else { return }
        let source = "\(login.provider.rawValue)-phone-match"
        var writes = MemberSyncWrites()
        for record in records {
            let entryID = UUID().uuidString.lowercased()
            let holder = try await store.user(holdingAnyOf: [record])
            writes.entries.append(MemberSyncEntry(
                id: entryID, occurredAt: now, organisationID: record.organisationId, memberRecordID: record.id, userID: holder?.id,
                source: source, outcome: .conflict, loginPersonnummer: try vault.seal(number, record: MemberSyncEntry.vaultRecord(entryID: entryID))
            ))
            writes.audit.append(AuditEvent(
                occurredAt: now, action: "member.link.refused", outcome: "phone_match_other_number", actorUserID: nil,
                organisationID: UUID(uuidString: record.organisationId), subjectType: "member", subjectID: record.id, source: source,
                details: ["entry": entryID, "holder": holder?.id ?? "none"]
            ))
            writes.audit.append(AuditEvent(
                occurredAt: now, action: "login.link.refused", outcome: "phone_match_other_number",
                organisationID: UUID(uuidString: record.organisationId), subjectType: "identity",
                subjectID: "\(login.provider.rawValue):\(login.subject)", source: source, details: ["entry": entryID, "member": record.id]
            ))
        }
        try await store.recordMemberSync(writes, now: now)
    }

    /// Vipps gives `4791234567`; member records hold E.164 (`+4791234567`).
    static func e164(_ phone: String?) -> String? {
        guard let phone, !phone.isEmpty else { return nil }
        let digits = phone.filter(\.isNumber)
        guard (8...15).contains(digits.count) else { return nil }
        return "+" + digits
    }
}
