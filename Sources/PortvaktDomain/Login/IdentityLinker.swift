import Foundation
import Personnummer
import PortvaktCore
import PortvaktModels

/// What linking a login to an account reads and writes: identities, accounts, the member records a login may claim, and the member sync it records.
public protocol IdentityLinkStore: Sendable {
    func user(provider: IdentityProvider, subject: String) async throws -> User?
    func user(personnummerIndex index: String) async throws -> User?
    func user(email: String) async throws -> User?
    func user(holdingAnyOf records: [MemberRecord]) async throws -> User?
    func recordLogin(provider: IdentityProvider, subject: String, now: Date) async throws
    func linkIdentity(userID: String, provider: IdentityProvider, subject: String, now: Date) async throws -> Identity
    func memberRecords(personnummerIndex index: String) async throws -> [MemberRecord]
    func memberRecords(personnummerIndex index: String, includingEnded: Bool) async throws -> [MemberRecord]
    func memberRecords(phone: String) async throws -> [MemberRecord]
    func createMemberUser(
        displayName: String, email: String?, personnummer seal: ((_ userID: String) throws -> ProtectedPersonnummer)?, provider: IdentityProvider,
        subject: String, memberRecords: [MemberRecord], requireUnheld: Bool, now: Date
    ) async throws -> User
    func memberSyncEntries(organisationID: String, outcome: MemberSyncOutcome?, status: String?, limit: Int) async throws -> [MemberSyncEntry]
    func recordMemberSync(_ writes: MemberSyncWrites, now: Date) async throws
    /// Ends `holderID`'s memberships resting on the record, as ending a membership does, with
    /// `writes`, in one transaction; nil when that account no longer holds it.
    @discardableResult
    func detachMemberRecord(id recordID: String, from holderID: String, reason: String, writes: MemberSyncWrites, now: Date) async throws -> EndedAccess?
}

/// Finds the user behind a BankID or Vipps login, as ``LinkingRule`` decides it: the linked
/// provider account, then the account with the same verified personnummer, then the member
/// records with that personnummer or the verified phone number (joining only an account with the
/// login's own number, else creating one). Nobody is created without a member record.
///
/// A record carrying the login's number but held by an account that is not this person's is
/// detached from it and goes to its organisation's review; the login goes on with the records
/// that agree, so one organisation's bad data never refuses a person everywhere.
public struct IdentityLinker: Sendable {
    public let store: any IdentityLinkStore
    public let vault: PersonnummerVault

    public init(store: any IdentityLinkStore, vault: PersonnummerVault) {
        self.store = store
        self.vault = vault
    }

    public struct Login: Sendable {
        public let provider: IdentityProvider
        public let subject: String
        public let personnummer: Personnummer?
        /// E.164, verified by the provider (Vipps).
        public let phone: String?
        public let name: String?

        public init(provider: IdentityProvider, subject: String, personnummer: Personnummer?, phone: String?, name: String?) {
            self.provider = provider
            self.subject = subject
            self.personnummer = personnummer
            self.phone = phone
            self.name = name
        }
    }

    /// The user, or nil when no member record matches (the organisation has not registered them).
    public func user(for login: Login, now: Date) async throws -> User? {
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
                if let index {
                    for record in try await store.memberRecords(personnummerIndex: index) {
                        let holder = try await store.user(holdingAnyOf: [record])
                        if LinkingRule.byNumber(holder: holder, loginIndex: index) == .detach, let holder {
                            try await detach(record, from: holder, login: login, now: now)
                        }
                        records.append(record)
                    }
                }
                if let phone = login.phone {
                    var refused: [(record: MemberRecord, holder: User?, reason: String)] = []
                    for record in try await store.memberRecords(phone: phone) where !records.contains(where: { $0.id == record.id }) {
                        let holder = try await store.user(holdingAnyOf: [record])
                        switch LinkingRule.byPhone(record, holder: holder, loginIndex: index, loginName: login.name) {
                        case .take: records.append(record)
                        case .refuse(let reason): refused.append((record, holder, reason))
                        case .detach: break
                        }
                    }
                    if !refused.isEmpty { try await recordRefused(refused, login: login, now: now) }
                }
                guard let first = records.first else { return nil }
                if let holder = try await store.user(holdingAnyOf: records) {
                    // Only an account with the login's own number is left holding one (a
                    // concurrent first login of this person); any other was detached above.
                    guard let index, holder.personnummer?.index == index else { return nil }
                    _ = try await store.linkIdentity(userID: holder.id, provider: login.provider, subject: login.subject, now: now)
                    return holder
                }
                // An email that already names another account is left off: accounts are never
                // joined by email (an administrator merges them if they are one person).
                var email = first.email
                if let taken = email, try await store.user(email: taken) != nil { email = nil }
                return try await store.createMemberUser(
                    displayName: first.fullName, email: email,
                    personnummer: login.personnummer.map { number in { id in try vault.protect(number, record: User.personnummerRecord(userID: id)) } },
                    provider: login.provider, subject: login.subject, memberRecords: records, requireUnheld: false, now: now
                )
            } catch let error as StoreError where error.isDuplicate && attempt == 0 {
                continue
            }
        }
        return nil
    }

    /// S15: whether a login that found no account may claim a record by an emailed code: not
    /// when a record carries its personnummer (that record is someone's already, and a claim by
    /// email must not go around the conflict rules).
    public func mayClaimByEmail(_ login: Login) async throws -> Bool {
        guard let number = login.personnummer else { return true }
        // Ended records do not stop it; a suspended one does (it is still the person's record).
        return try await !store.memberRecords(personnummerIndex: vault.blindIndex(number), includingEnded: true).contains { $0.isActive }
    }

    /// S15: of the records carrying an email, the one per organisation a login may claim by a code
    /// sent there: a record with no number that no account holds, whose name is the login's name
    /// (an address shared in a family or by a coordinator must not hand over someone else's
    /// membership). An organisation with two such records is left out: a person decides.
    public func claimableByEmail(_ records: [MemberRecord], name: String?) async throws -> [MemberRecord] {
        guard let name, !LinkingRule.words(name).isEmpty else { return [] }
        var free: [MemberRecord] = []
        for record in records where record.personnummer == nil && LinkingRule.sameName(record.fullName, name) {
            if try await store.user(holdingAnyOf: [record]) == nil { free.append(record) }
        }
        let organisations = Dictionary(grouping: free, by: \.organisationId)
        return free.filter { organisations[$0.organisationId]?.count == 1 }
    }

    /// S15: the login's identity takes the records its person proved by an emailed code: a new
    /// account holding them, as a first login makes one. Nil when one is no longer claimable (an
    /// account took it meanwhile: the store checks inside the transaction) or the identity has an
    /// account already.
    public func link(claimed records: [MemberRecord], login: Login, now: Date) async throws -> User? {
        guard let first = records.first, try await store.user(provider: login.provider, subject: login.subject) == nil else { return nil }
        var email = first.email
        if let taken = email, try await store.user(email: taken) != nil { email = nil }
        do {
            return try await store.createMemberUser(
                displayName: first.fullName, email: email,
                personnummer: login.personnummer.map { number in { id in try vault.protect(number, record: User.personnummerRecord(userID: id)) } },
                provider: login.provider, subject: login.subject, memberRecords: records, requireUnheld: true, now: now
            )
        } catch let error as StoreError where error.isDuplicate || error.isConstraint {
            return nil
        }
    }

    /// A record whose number is the login's, held by an account that is not this person's: the
    /// account's memberships on it end (as an ending does) and the organisation's review gets an
    /// open entry naming the account, in one transaction; audited on the record and the login.
    private func detach(_ record: MemberRecord, from holder: User, login: Login, now: Date) async throws {
        let source = "\(login.provider.rawValue)-login"
        var writes = MemberSyncWrites()
        writes.entries.append(MemberSyncEntry(
            occurredAt: now, organisationID: record.organisationId, memberRecordID: record.id, userID: holder.id,
            source: "\(source)-detached", outcome: .conflict
        ))
        let reason = holder.personnummer == nil ? "holder_without_number" : "holder_with_another_number"
        writes.audit.append(AuditEvent(
            occurredAt: now, action: .memberDetached, outcome: reason, organisationID: UUID(uuidString: record.organisationId),
            subjectType: "member", subjectID: record.id, source: source, details: ["holder": holder.id]
        ))
        try await store.detachMemberRecord(id: record.id, from: holder.id, reason: MembershipEnding.sessionReason, writes: writes, now: now)
    }

    /// Refused phone matches, audited for the record and for the login. One where phone and name
    /// matched, with the login's personnummer, also goes to the organisation's review list as a
    /// conflict entry holding that number sealed, as a sync conflict does; no other (a phone
    /// alone never puts a number in front of the organisation that recorded the phone).
    private func recordRefused(_ refusals: [(record: MemberRecord, holder: User?, reason: String)], login: Login, now: Date) async throws {
        let source = "\(login.provider.rawValue)-phone-match"
        var writes = MemberSyncWrites()
        for (record, holder, reason) in refusals {
            let entryID = UUID().uuidString.lowercased()
            var details = ["holder": holder?.id ?? "none"]
            if let number = login.personnummer, reason == LinkingRule.notFree {
                // One open review entry per record: repeated logins add audit events, not entries.
                let open = try await store.memberSyncEntries(organisationID: record.organisationId, outcome: .conflict, status: "open", limit: 500)
                    .contains { $0.memberRecordId == record.id && $0.source == source }
                if !open {
                    writes.entries.append(MemberSyncEntry(
                        id: entryID, occurredAt: now, organisationID: record.organisationId, memberRecordID: record.id, userID: holder?.id,
                        source: source, outcome: .conflict, loginPersonnummer: try vault.seal(number, record: MemberSyncEntry.vaultRecord(entryID: entryID))
                    ))
                    details["entry"] = entryID
                }
            }
            writes.audit.append(AuditEvent(
                occurredAt: now, action: .memberLinkRefused, outcome: reason, actorUserID: nil,
                organisationID: UUID(uuidString: record.organisationId), subjectType: "member", subjectID: record.id, source: source,
                details: details
            ))
            writes.audit.append(AuditEvent(
                occurredAt: now, action: .loginLinkRefused, outcome: reason,
                organisationID: UUID(uuidString: record.organisationId), subjectType: "identity",
                subjectID: "\(login.provider.rawValue):\(login.subject)", source: source, details: details.merging(["member": record.id]) { $1 }
            ))
        }
        try await store.recordMemberSync(writes, now: now)
    }

    /// Vipps gives `4791234567`; member records hold E.164 (`+4791234567`).
    public static func e164(_ phone: String?) -> String? {
        guard let phone, !phone.isEmpty else { return nil }
        let digits = phone.filter(\.isNumber)
        guard (8...15).contains(digits.count) else { return nil }
        return "+" + digits
    }
}
