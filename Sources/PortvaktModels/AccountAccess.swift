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
