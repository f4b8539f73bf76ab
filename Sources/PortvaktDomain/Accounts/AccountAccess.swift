import Foundation
import Logging
import PortvaktCore
import PortvaktModels

/// What disabling, enabling and signing out an account read and write.
public protocol AccountAccessStore: Sendable {
    func user(id: String) async throws -> User?
    func disableUser(id: String, reason: String, audit: @escaping @Sendable (AccountAccessChange) -> [AuditEvent], now: Date) async throws -> AccountAccessChange?
    func enableUser(id: String, audit: @escaping @Sendable (AccountAccessChange) -> [AuditEvent], now: Date) async throws -> AccountAccessChange?
    func signOutUser(id: String, reason: String, audit: @escaping @Sendable (AccountAccessChange) -> [AuditEvent], now: Date) async throws -> AccountAccessChange?
}

/// An operator's hold on one account (issue 45, items 4 and 5): `user disable`, `user enable`
/// and `user sign-out`.
///
/// Disabled means disabled, everywhere: the account's sessions end in the transaction that
/// disables it (so its refresh tokens, access tokens and portal sessions stop at once), no session
/// can start for it afterwards (migration 28), and every way in (BankID and Vipps in the browser
/// and by order, password, passkey, device unlock, step-up) says ``UserMessage/accountDisabled``.
/// Its devices and passkeys are kept but refused while it is disabled, so enabling it gives
/// them back; what ended stays ended.
///
/// Each change is audited with the operator's reason, which stays in the trail for good and so
/// may not name the person.
public struct AccountAccess: Sendable {
    let store: any AccountAccessStore
    let logger: Logger
    let now: @Sendable () -> Date

    /// The `revoked_reason` of the sessions a disabling ends; an ended session with it tells its
    /// app "your account is disabled" while the account is.
    public static let disabledReason = "user_disabled"
    /// The `revoked_reason` of the sessions `user sign-out` ends.
    public static let signedOutReason = "user_signed_out"
    public static let reasonLimit = 200

    public init(store: any AccountAccessStore, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.logger = logger
        self.now = now
    }

    /// Why an operator's request was not done, in one line that names no personal data.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Disables the account, ends every session and portal session of it, audited `user.disabled`.
    /// Disabling a disabled account changes nothing (and is not audited again).
    /// - Parameters:
    ///   - reason: why, for the audit trail (a case number, "lost phone reported", …).
    ///   - source: who asked (`operator`).
    /// - Returns: what was done; nil when no account has the id.
    /// - Throws: ``Refusal`` for a reason that is empty, too long, on several lines, or names the person.
    public func disable(userID: String, reason: String, source: String) async throws -> AccountAccessChange? {
        guard let user = try await store.user(id: userID) else { return nil }
        let reason = try Self.checked(reason, for: user)
        let time = now()
        let change = try await store.disableUser(id: user.id, reason: Self.disabledReason, audit: { change in
            guard change.changed || change.sessionsEnded + change.portalSessionsEnded > 0 else { return [] }
            return [Self.event(.userDisabled, change, reason: reason, source: source, at: time)]
        }, now: time)
        log("Account disabled", change, source: source)
        return change
    }

    /// Enables a disabled account, audited `user.enabled`: its devices and passkeys work again and
    /// its next login opens a session. Enabling an enabled account changes nothing.
    /// - Returns: what was done; nil when no account has the id.
    /// - Throws: ``Refusal`` for a reason that is empty, too long, on several lines, or names the person.
    public func enable(userID: String, reason: String, source: String) async throws -> AccountAccessChange? {
        guard let user = try await store.user(id: userID) else { return nil }
        let reason = try Self.checked(reason, for: user)
        let time = now()
        let change = try await store.enableUser(id: user.id, audit: { change in
            change.changed ? [Self.event(.userEnabled, change, reason: reason, source: source, at: time)] : []
        }, now: time)
        log("Account enabled", change, source: source)
        return change
    }

    /// Signs the account out everywhere (every session, portal session and device unlock),
    /// audited `user.signed_out`. The account stays usable: its next login, unlock or passkey works.
    /// - Parameter reason: why, for the audit trail; nil for none.
    /// - Returns: what was done; nil when no account has the id.
    /// - Throws: ``Refusal`` for a reason that is too long, on several lines, or names the person.
    public func signOut(userID: String, reason: String?, source: String) async throws -> AccountAccessChange? {
        guard let user = try await store.user(id: userID) else { return nil }
        let reason = try reason.map { try Self.checked($0, for: user) }
        let time = now()
        let change = try await store.signOutUser(id: user.id, reason: Self.signedOutReason, audit: { change in
            [Self.event(.userSignedOut, change, reason: reason, source: source, at: time)]
        }, now: time)
        log("Account signed out everywhere", change, source: source)
        return change
    }

    // MARK: -

    private static func event(_ action: AuditAction, _ change: AccountAccessChange, reason: String?, source: String, at time: Date) -> AuditEvent {
        var details = ["sessions_ended": "\(change.sessionsEnded)", "portal_sessions_ended": "\(change.portalSessionsEnded)"]
        if let reason { details["reason"] = reason }
        return AuditEvent(
            occurredAt: time, action: action, outcome: "success", subjectType: "user", subjectID: change.userID, source: source, details: details
        )
    }

    private func log(_ message: Logger.Message, _ change: AccountAccessChange?, source: String) {
        guard let change else { return }
        logger.notice(message, metadata: [
            "user": "\(change.userID)", "source": "\(source)", "changed": "\(change.changed)",
            "sessions": "\(change.sessionsEnded)", "portal_sessions": "\(change.portalSessionsEnded)",
        ])
    }

    /// `reason` trimmed, when it is one line of 1 to 200 characters that does not name the person
    /// by their name or email (it stays in the audit trail for good, even after an erasure).
    static func checked(_ reason: String, for user: User) throws(Refusal) -> String {
        let text = reason.trimmingCharacters(in: .whitespaces)
        guard (1...reasonLimit).contains(text.count), !TextInput.hasControlCharacters(text) else {
            throw Refusal(description: "the reason must be 1 to \(reasonLimit) characters on one line, such as a case number")
        }
        let lowered = text.lowercased()
        let names = [user.displayName, user.email].compactMap { $0?.lowercased() }.filter { $0.count >= 3 }
        guard !names.contains(where: { lowered.contains($0) }) else {
            throw Refusal(description: "the reason stays in the audit trail for good, so it must not name the person (their name or email): give a reference such as a case number")
        }
        // Eight digits or more in a row (a phone or a personnummer, however spaced) are nobody's case number here.
        guard Redactor.redact(text) == text, !Self.hasPhoneLikeDigits(text) else {
            throw Refusal(description: "the reason stays in the audit trail for good, so it must not hold a phone number or a personnummer: give a reference such as a case number")
        }
        return text
    }

    /// Eight or more digits with only spaces or a + between them (a phone number however spaced;
    /// a case number such as 2026-12345 is not one).
    static func hasPhoneLikeDigits(_ text: String) -> Bool {
        var digits = 0
        for character in text {
            if character.isASCII, character.isNumber { digits += 1; if digits >= 8 { return true } }
            else if character == " " || character == "+" { continue }
            else { digits = 0 }
        }
        return false
    }
}
