import Foundation
import PortvaktCore

/// What disabling, enabling or signing out an account did (issue 45, items 4 and 5).
public struct AccountAccessChange: Sendable, Equatable {
    public let userID: String
    /// Whether the account's state changed: false when it was disabled (or enabled) already.
    public let changed: Bool
    /// Sessions that were alive and are now revoked (app, portal and device-unlock sessions alike;
    /// their refresh tokens stop with them).
    public let sessionsEnded: Int
    /// Browsers signed in to the portal that are signed out.
    public let portalSessionsEnded: Int

    public init(userID: String, changed: Bool, sessionsEnded: Int, portalSessionsEnded: Int) {
        self.userID = userID
        self.changed = changed
        self.sessionsEnded = sessionsEnded
        self.portalSessionsEnded = portalSessionsEnded
    }
}

extension StoreError {
    /// A session was refused because its account is disabled (``disabledAccountConstraint``):
    /// the account was disabled while its login, unlock or passkey sign-in was under way.
    public var isDisabledAccount: Bool { isConstraint && detail == Self.disabledAccountConstraint }

    /// The name a session's insert is refused with while its user is disabled (migration 28's
    /// trigger, on both databases).
    public static let disabledAccountConstraint = "sessions_user_not_disabled"
}
