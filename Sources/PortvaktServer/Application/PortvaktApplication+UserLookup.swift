import Foundation
import Logging
import Personnummer
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// The operator's commands about one person (issue 45, item 4): `user find` and `user erase`.
/// Each opens the configured database (migrated) with the configured keys, as the other
/// operator commands do, and refuses with an ``OperatorError`` that never carries a personnummer.
extension PortvaktApplication {
    /// `user find --email | --phone | --personnummer`: the accounts that carry the value, or hold
    /// a member record that does, and the matching records no account holds. A personnummer is
    /// found through its blind index only; the output masks it, the email and the phones.
    /// - Throws: ``OperatorError/usage(_:)`` for a value that cannot be an email, a phone number or
    ///   a personnummer.
    public static func findUsers(configuration: ServerConfiguration, logger: Logger, by search: UserSearch) async throws -> UserSearchResult {
        let key = try SearchKey(search, context: configuration.sandboxEnabled ? .test : .production)
        return try await withStore(configuration: configuration, logger: logger) { store, keys in
            var userIDs: [String] = []
            let records: [MemberRecord]
            switch key {
            case .email(let email):
                if let user = try await store.user(email: email) { userIDs.append(user.id) }
                records = try await store.memberRecords(email: email, includingEnded: true)
            case .phone(let phone):
                records = try await store.memberRecords(phone: phone, includingEnded: true)
            case .personnummer(let number):
                let index = keys.vault.blindIndex(number)
                if let user = try await store.user(personnummerIndex: index) { userIDs.append(user.id) }
                records = try await store.memberRecords(personnummerIndex: index, includingEnded: true)
            }
            let slugs = Dictionary(uniqueKeysWithValues: try await store.organisations().map { ($0.id, $0.slug) })
            var unheld: [UserSearchResult.UnheldRecord] = []
            for record in records {
                if let holder = try await store.user(holdingAnyOf: [record]) {
                    if !userIDs.contains(holder.id) { userIDs.append(holder.id) }
                } else {
                    unheld.append(.init(organisation: slugs[record.organisationId] ?? record.organisationId, role: record.role, ended: !record.isActive))
                }
            }
            var accounts: [UserLookup] = []
            for id in userIDs {
                guard let user = try await store.user(id: id) else { continue }
                accounts.append(try await Self.lookup(user, in: store, vault: keys.vault))
            }
            return UserSearchResult(accounts: accounts, unheldRecords: unheld)
        }
    }

    /// `user erase --user-id ID --reason TEXT [--yes]` (GDPR art. 17): without `confirmed`, what
    /// would go (nothing is written); with it, the erasure (``AccountErasure``), audited `user.erased`.
    /// - Parameter reason: a reference such as the organisation's case number, kept in the audit
    ///   trail; one that names the person is refused.
    /// - Throws: ``OperatorError``: a malformed id or reason (64); an unknown account (65).
    public static func eraseUser(
        configuration: ServerConfiguration, logger: Logger, userID: String, reason: String, confirmed: Bool
    ) async throws -> UserErasureReport {
        let id = userID.trimmingCharacters(in: .whitespaces).lowercased()
        guard UUID(uuidString: id) != nil else {
            throw OperatorError.usage("'\(Redactor.sanitize(String(userID.prefix(64))))' is not an account id (a UUID: `portvakt-server user find` shows them)")
        }
        let reference = try Self.checkedText(reason, what: "The reason", limit: 200)
        return try await withStore(configuration: configuration, logger: logger) { store, _ in
            let erasure = AccountErasure(store: store, now: { Date() })
            guard let footprint = try await erasure.footprint(of: id) else {
                throw OperatorError.badData("no account has the id \(id) (erased already? `portvakt-server user find` shows accounts)")
            }
            if let problem = AccountErasure.problem(with: reference, for: footprint) { throw OperatorError.usage(problem) }
            guard confirmed else {
                return UserErasureReport(userID: id, counts: footprint.counts, recordsKept: footprint.records.count, erased: false)
            }
            let counts: AccountErasureCounts?
            do {
                counts = try await erasure.erase(userID: id, reason: reference, source: "operator")
            } catch let refusal as AccountErasure.Refusal {
                throw OperatorError.usage(refusal.description)
            }
            guard let counts else { throw OperatorError.badData("the account \(id) went while it was being erased (erased by another operator?)") }
            var metadata: Logger.Metadata = ["user": "\(id)", "source": "operator"]
            for (name, value) in counts.details { metadata[name] = .string(value) }
            logger.notice("Account erased", metadata: metadata)
            return UserErasureReport(userID: id, counts: counts, recordsKept: footprint.records.count, erased: true)
        }
    }

    /// One account as `user find` shows it.
    private static func lookup(_ user: User, in store: PortvaktStore, vault: PersonnummerVault) async throws -> UserLookup {
        var phones: [String] = []
        for membership in try await store.memberships(userID: user.id) {
            guard let recordID = membership.memberRecordId, let phone = try await store.memberRecord(id: recordID)?.phone else { continue }
            let masked = Masked.phone(phone)
            if !phones.contains(masked) { phones.append(masked) }
        }
        let memberships = try await store.organisationRoles(userID: user.id).flatMap { organisation in
            organisation.roles.map { UserLookup.Membership(organisation: organisation.slug, role: $0) }
        }
        // As My account's download masks it; a number that does not open (another key) shows as stars.
        let personnummer = user.personnummer.map { protected in
            (try? vault.open(protected.sealed, record: User.personnummerRecord(userID: user.id)))?.masked ?? "*****"
        }
        let sessions = try await store.activeSessions(userID: user.id).count
        let devices = try await store.activeDevices(userID: user.id).count
        let passkeys = try await store.passkeys(userID: user.id).count
        return UserLookup(
            userID: user.id, name: user.displayName, personnummer: personnummer, email: user.email.map(Masked.email), phones: phones,
            memberships: memberships, disabled: user.disabledAt != nil, sessions: sessions, devices: devices, passkeys: passkeys
        )
    }
}

/// A `user find` value, checked before the database is opened.
private enum SearchKey: Sendable {
    case email(String)
    case phone(String)
    case personnummer(Personnummer)

    init(_ search: UserSearch, context: Personnummer.Context) throws(OperatorError) {
        switch search {
        case .email(let text):
            let email = text.trimmingCharacters(in: .whitespaces).lowercased()
            guard (3...254).contains(email.count), email.contains("@"), !TextInput.hasControlCharacters(email) else {
                throw .usage("'\(Redactor.sanitize(String(text.prefix(64))))' is not an email address")
            }
            self = .email(email)
        case .phone(let text):
            guard let phone = Self.e164(text) else {
                throw .usage("a phone number has its country code (+47 900 00 001) or is eight Norwegian digits")
            }
            self = .phone(phone)
        case .personnummer(let text):
            // Never echoed: the refusal names the rule, not the value.
            guard let number = try? Personnummer(text.trimmingCharacters(in: .whitespacesAndNewlines), context: context) else {
                throw .usage("that is not a valid personnummer (11 digits whose check digits match)")
            }
            self = .personnummer(number)
        }
    }

    /// `+47 900 00 001`, `0047 90000001` and `90000001` → `+4790000001`, as the member directory
    /// writes a record's phone (eight digits alone are Norwegian; anything else needs its country code).
    static func e164(_ text: String) -> String? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        let international = rest.hasPrefix("+")
        if international { rest = rest.dropFirst() }
        guard rest.allSatisfy({ $0.isASCII && ($0.isNumber || " -.()".contains($0)) }) else { return nil }
        var digits = String(rest.filter(\.isNumber))
        if !international {
            if digits.hasPrefix("00") {
                digits.removeFirst(2)
            } else if digits.count == 8 {
                digits = "47" + digits
            } else {
                return nil
            }
        }
        guard (8...15).contains(digits.count) else { return nil }
        return "+" + digits
    }
}
