import Foundation
import PortvaktCore
import PortvaktModels

/// What erasing an account reads and writes.
public protocol AccountErasureStore: Sendable {
    func accountFootprint(userID: String) async throws -> AccountFootprint?
    func eraseAccount(userID: String, audit: @escaping @Sendable (AccountErasureCounts) -> AuditEvent, now: Date) async throws -> AccountErasureCounts?
}

/// The right to erasure (GDPR art. 17, `portvakt-server user erase`): an account and everything
/// that is only the person's go in one transaction (``AccountErasureStore/eraseAccount(userID:audit:now:)``
/// says what, table by table); what is the organisation's stays without them. The member records
/// are the member system's copy: they stay, unlinked, until the member system ends or deletes
/// them, so a later BankID or Vipps login with the same number finds a record and makes a new
/// account, with nothing of the old one (PRIVACY.md, "Erasure").
///
/// The audit trail is a hash chain and cannot change: its events keep the account's id, which
/// afterwards names nobody. The erasure's own event (`user.erased`) holds counts and the
/// operator's reference; a reference that names the person is refused, since it would stay for good.
public struct AccountErasure: Sendable {
    let store: any AccountErasureStore
    let now: @Sendable () -> Date

    public init(store: any AccountErasureStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// Why an erasure was not done, in one line that names no personal data.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// What erasing the account would remove (a dry run writes nothing); nil for an unknown id.
    public func footprint(of userID: String) async throws -> AccountFootprint? {
        try await store.accountFootprint(userID: userID)
    }

    /// Erases the account, audited `user.erased` with `source` and `reason` in the same transaction.
    /// - Parameter reason: the operator's reference (the organisation's case number), kept in the
    ///   audit trail for good.
    /// - Returns: what was removed; nil when no account has this id.
    /// - Throws: ``Refusal`` for a reason that is empty, too long, or names the person.
    public func erase(userID: String, reason: String, source: String) async throws -> AccountErasureCounts? {
        guard let footprint = try await store.accountFootprint(userID: userID) else { return nil }
        let reference = reason.trimmingCharacters(in: .whitespaces)
        if let problem = Self.problem(with: reference, for: footprint) { throw Refusal(description: problem) }
        let time = now()
        return try await store.eraseAccount(userID: userID, audit: { counts in
            AuditEvent(
                occurredAt: time, action: .userErased, outcome: "success", subjectType: "user", subjectID: userID, source: source,
                details: counts.details.merging(["reason": reference]) { _, reference in reference }
            )
        }, now: time)
    }

    /// Why `reason` may not go into the audit trail; nil when it may. It must be one line of 1 to
    /// 200 characters, and name none of what Portvakt knows of the person: a full or family name,
    /// an email, a user name or member number, a phone number (a personnummer is redacted from
    /// every audit detail anyway).
    public static func problem(with reason: String, for footprint: AccountFootprint) -> String? {
        let text = reason.trimmingCharacters(in: .whitespaces)
        guard (1...200).contains(text.count), !TextInput.hasControlCharacters(text) else {
            return "the reason must be 1 to 200 characters on one line: a reference such as the organisation's case number"
        }
        let lowered = text.lowercased()
        let words = Set(Self.words(lowered))
        var fullNames = [footprint.user.displayName]
        var familyNames: [String] = []
        var identifiers = [footprint.user.email].compactMap { $0 }
        var phones: [String] = []
        for record in footprint.records {
            fullNames.append(record.fullName)
            if let given = record.givenName, let family = record.familyName { fullNames.append(given + " " + family) }
            if let family = record.familyName { familyNames.append(family) }
            identifiers += [record.email, record.userName, record.memberNumber].compactMap { $0 }
            if let phone = record.phone { phones.append(phone) }
        }
        let runs = Self.digitRuns(text)
        let names = fullNames.contains { $0.count >= 3 && lowered.contains($0.lowercased()) }
            || familyNames.flatMap { Self.words($0.lowercased()) }.contains { $0.count >= 2 && words.contains($0) }
            || identifiers.contains { $0.count >= 4 && lowered.contains($0.lowercased()) }
            || phones.contains { phone in
                let tail = String(phone.filter(\.isNumber).suffix(8))
                return tail.count == 8 && runs.contains { $0.contains(tail) }
            }
        guard !names else {
            return "the reason stays in the audit trail for good, so it must not name the person (a name, an email, a phone number or a member number): give a reference such as the organisation's case number"
        }
        return nil
    }

    /// The words of `text`: runs of letters and digits.
    private static func words(_ text: String) -> [String] {
        text.split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// The digits of each run of digits, spaces, `+` and `-` (a phone number as people write it).
    private static func digitRuns(_ text: String) -> [String] {
        text.split { !($0.isASCII && ($0.isNumber || $0 == " " || $0 == "-" || $0 == "+")) }.map { String($0.filter(\.isNumber)) }
    }
}
