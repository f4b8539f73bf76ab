import Foundation
import Logging
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// Which account an operator's command names: its id (`user find` shows it) or its email.
public enum UserReference: Sendable, Equatable {
    case id(String)
    case email(String)
}

/// What `user disable`, `user enable` or `user sign-out` did, as the command prints it.
public struct UserAccessReport: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case disabled, enabled, signedOut
    }

    public let action: Action
    public let userID: String
    /// False when the account was so already (disabled, or enabled).
    public let changed: Bool
    public let sessionsEnded: Int
    public let portalSessionsEnded: Int

    /// One or two lines for the operator, naming the account by its id only.
    public var lines: [String] {
        let ended = "ended \(sessionsEnded) session\(sessionsEnded == 1 ? "" : "s") and \(portalSessionsEnded) portal sign-in\(portalSessionsEnded == 1 ? "" : "s")"
        switch (action, changed) {
        case (.disabled, true):
            return [
                "Disabled account \(userID): \(ended).",
                "Every way in now says the account is disabled. Its phones and passkeys are kept, refused until `portvakt-server user enable`.",
            ]
        case (.disabled, false):
            return ["Account \(userID) was disabled already; nothing changed\(sessionsEnded + portalSessionsEnded > 0 ? " (\(ended))" : "")."]
        case (.enabled, true):
            return ["Enabled account \(userID): its phones and passkeys work again, and its next login opens a session."]
        case (.enabled, false):
            return ["Account \(userID) was not disabled; nothing changed."]
        case (.signedOut, _):
            return ["Signed account \(userID) out everywhere: \(ended). Its next login, unlock or passkey works as before."]
        }
    }
}

/// The operator's commands about one account's access (issue 45, items 4 and 5): `user disable`,
/// `user enable` and `user sign-out` (``AccountAccess``). Each opens the configured database
/// (migrated) with the configured keys, as the other operator commands do, and refuses with an
/// ``OperatorError``.
extension PortvaktApplication {
    /// `user disable --email ADDRESS | --user-id ID --reason TEXT`: every session and portal
    /// session of the account ends at once, and every way in refuses it, until `user enable`.
    /// - Throws: ``OperatorError``: a malformed id or reason (64); no such account (65).
    public static func disableUser(configuration: ServerConfiguration, logger: Logger, user: UserReference, reason: String) async throws -> UserAccessReport {
        try await changeAccess(configuration: configuration, logger: logger, user: user, action: .disabled) { access, id in
            try await access.disable(userID: id, reason: reason, source: "operator")
        }
    }

    /// `user enable --email ADDRESS | --user-id ID --reason TEXT`: the account's phones and passkeys
    /// work again and its next login opens a session.
    /// - Throws: ``OperatorError``: a malformed id or reason (64); no such account (65).
    public static func enableUser(configuration: ServerConfiguration, logger: Logger, user: UserReference, reason: String) async throws -> UserAccessReport {
        try await changeAccess(configuration: configuration, logger: logger, user: user, action: .enabled) { access, id in
            try await access.enable(userID: id, reason: reason, source: "operator")
        }
    }

    /// `user sign-out --email ADDRESS | --user-id ID [--reason TEXT]`: every session (app, portal
    /// and device unlock) and portal session of the account ends; the account stays usable.
    /// - Throws: ``OperatorError``: a malformed id or reason (64); no such account (65).
    public static func signOutUser(configuration: ServerConfiguration, logger: Logger, user: UserReference, reason: String?) async throws -> UserAccessReport {
        try await changeAccess(configuration: configuration, logger: logger, user: user, action: .signedOut) { access, id in
            try await access.signOut(userID: id, reason: reason, source: "operator")
        }
    }

    private static func changeAccess(
        configuration: ServerConfiguration, logger: Logger, user: UserReference, action: UserAccessReport.Action,
        _ change: @escaping @Sendable (AccountAccess, String) async throws -> AccountAccessChange?
    ) async throws -> UserAccessReport {
        if case .id(let id) = user { _ = try Self.checkedUserID(id) }
        return try await withStore(configuration: configuration, logger: logger) { store, _ in
            let id = try await Self.existingUserID(user, in: store)
            let done: AccountAccessChange?
            do {
                done = try await change(AccountAccess(store: store, logger: logger, now: { Date() }), id)
            } catch let refusal as AccountAccess.Refusal {
                throw OperatorError.usage(refusal.description)
            }
            guard let done else { throw OperatorError.badData("the account \(id) went while the command ran (erased by another operator?)") }
            return UserAccessReport(
                action: action, userID: id, changed: done.changed, sessionsEnded: done.sessionsEnded, portalSessionsEnded: done.portalSessionsEnded
            )
        }
    }

    /// The id of the account `user` names.
    /// - Throws: ``OperatorError/badData(_:)`` when no account has it (the email is not repeated: it stays out of logs).
    private static func existingUserID(_ user: UserReference, in store: PortvaktStore) async throws -> String {
        switch user {
        case .id(let text):
            let id = try checkedUserID(text)
            guard try await store.user(id: id) != nil else {
                throw OperatorError.badData("no account has the id \(id) (`portvakt-server user find` shows accounts)")
            }
            return id
        case .email(let text):
            let email = text.trimmingCharacters(in: .whitespaces)
            guard !email.isEmpty, email.utf8.count <= 254, !TextInput.hasControlCharacters(email) else {
                throw OperatorError.usage("--email must be an email address")
            }
            guard let found = try await store.user(email: email) else {
                throw OperatorError.badData("no account has that email (`portvakt-server user find --email` shows accounts and member records)")
            }
            return found.id
        }
    }

    /// `text` as an account id (a UUID, in the schema's lowercase form).
    private static func checkedUserID(_ text: String) throws(OperatorError) -> String {
        let id = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard UUID(uuidString: id) != nil else {
            throw .usage("'\(Redactor.sanitize(String(text.prefix(64))))' is not an account id (a UUID: `portvakt-server user find` shows them)")
        }
        return id
    }
}
