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
}

/// Finds the user behind a BankID or Vipps login, as DESIGN.md orders it: the linked provider
/// account, then a user with the same personnummer, then member records with the same
/// personnummer or verified phone number (joining the user who already holds such a record).
/// Nobody is created without a member record.
///
/// Phone numbers are reassigned, mistyped and shared in families, so a phone match links only a
/// record with no number that no account holds; any other is not linked, audited, and (when the
/// provider gave a personnummer) put on the organisation's review list.
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
                if let index { records = try await store.memberRecords(personnummerIndex: index) }
                if let phone = login.phone {
                    let byPhone = try await store.memberRecords(phone: phone).filter { candidate in !records.contains { $0.id == candidate.id } }
                    let (linkable, refused) = try await phoneMatches(byPhone, index: index)
                    records += linkable
                    if !refused.isEmpty { try await recordRefused(refused, login: login, now: now) }
                }
                guard let first = records.first else { return nil }
                if let holder = try await store.user(holdingAnyOf: records) {
                    // A record may carry the login's number (an administrator took it into the
                    // record), yet be held by an account with another number: never that account.
                    if let held = holder.personnummer?.index, held != index { return nil }
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
        guard let name, !Self.words(name).isEmpty else { return [] }
        var free: [MemberRecord] = []
        for record in records where record.personnummer == nil && Self.sameName(record.fullName, name) {
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

    /// Names compared without case and accents by their first given name and last surname, a
    /// hyphenated name being one (`Kari Nordmann` is `Kari Elisabeth Nordmann`; `Lise Berg` is
    /// not `Anne-Lise Berg`, nor `Ida Kari Nordmann`).
    static func sameName(_ a: String, _ b: String) -> Bool {
        let (x, y) = (words(a), words(b))
        guard x.count >= 2, y.count >= 2 else { return false }
        return x.first == y.first && x.last == y.last
    }

    private static func words(_ name: String) -> [String] {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: Locale(identifier: "nb_NO"))
            .split(whereSeparator: { !$0.isLetter && $0 != "-" }).map(String.init)
    }

    /// The phone-matched records a login may link, and those it may not. A phone number proves
    /// only that the phone is the person's now: it may claim a record that has no number and
    /// that no account holds yet, nothing more (an account is joined by its own credentials,
    /// the personnummer or the provider account, never by a phone).
    /// (A record held by an account with the login's own personnummer is that person's: a
    /// concurrent first login of theirs made it a moment ago.)
    private func phoneMatches(_ records: [MemberRecord], index: String?) async throws -> (linkable: [MemberRecord], refused: [MemberRecord]) {
        var linkable: [MemberRecord] = [], refused: [MemberRecord] = []
        for record in records {
            let holder = try await store.user(holdingAnyOf: [record])
            let ownHolder = index != nil && holder?.personnummer?.index == index
            let free = record.personnummer == nil && (holder == nil || ownHolder)
            if free { linkable.append(record) } else { refused.append(record) }
        }
        return (linkable, refused)
    }

    /// A refused phone match, audited for the record and for the login. With the login's
    /// personnummer it goes to the organisation's review list as a conflict entry holding that
    /// number sealed, as a sync conflict does; without one there is nothing to decide on.
    private func recordRefused(_ records: [MemberRecord], login: Login, now: Date) async throws {
        let source = "\(login.provider.rawValue)-phone-match"
        var writes = MemberSyncWrites()
        for record in records {
            let entryID = UUID().uuidString.lowercased()
            let holder = try await store.user(holdingAnyOf: [record])
            // One open review entry per record: repeated logins add audit events, not entries.
            let open = try await store.memberSyncEntries(organisationID: record.organisationId, outcome: .conflict, status: "open", limit: 500)
                .contains { $0.memberRecordId == record.id && $0.source == source }
            if let number = login.personnummer, !open {
                writes.entries.append(MemberSyncEntry(
                    id: entryID, occurredAt: now, organisationID: record.organisationId, memberRecordID: record.id, userID: holder?.id,
                    source: source, outcome: .conflict, loginPersonnummer: try vault.seal(number, record: MemberSyncEntry.vaultRecord(entryID: entryID))
                ))
            }
            let reason = login.personnummer == nil ? "phone_match_without_number" : "phone_match_not_free"
            var details = ["holder": holder?.id ?? "none"]
            if login.personnummer != nil, !open { details["entry"] = entryID }
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
