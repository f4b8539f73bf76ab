import Foundation
import PortvaktCore

/// A browser signed in to the portal. Times are Unix milliseconds.
public struct PortalSession: Sendable, Hashable, Codable {
    public let idHash: Data
    public let userId: String
    /// The Portvakt session the portal's login opened; it ends with the portal session.
    public let sessionId: String
    public let createdAt: Int64
    public let idleExpiresAt: Int64
    public let absoluteExpiresAt: Int64

    public init(idHash: Data, userID: String, sessionID: String, now: Date, idle: TimeInterval, absolute: TimeInterval) {
        self.idHash = idHash
        userId = userID
        sessionId = sessionID
        createdAt = now.millisecondsSince1970
        idleExpiresAt = now.addingTimeInterval(idle).millisecondsSince1970
        absoluteExpiresAt = now.addingTimeInterval(absolute).millisecondsSince1970
    }
}
