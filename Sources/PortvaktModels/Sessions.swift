import Foundation
import PortvaktCore

/// A signed-in session of one user on one client. Times are Unix milliseconds.
public struct Session: Sendable, Hashable, Codable {
    public let id: String
    public let userId: String
    public let clientId: String
    public let deviceId: String?
    /// The passkey whose sign-in opened the session; removing the passkey ends it.
    public let passkeyId: String?
    /// Authentication methods (RFC 8176), space-separated, for example `hwk face`.
    public let amr: String
    public let acr: String
    public let authTime: Int64
    public let createdAt: Int64
    public let idleExpiresAt: Int64
    public let absoluteExpiresAt: Int64
    public let revokedAt: Int64?
    public let revokedReason: String?
    /// The RFC 7638 thumbprint of the client's DPoP key (RFC 9449) its tokens are bound to; nil
    /// for Bearer tokens.
    public let dpopJkt: String?
    /// The scopes granted at login, space-separated, which decide the claims of its tokens
    /// (`ClaimScopes`); nil for a session from before version 34 and a device unlock's, which
    /// carry every claim (Portvakt's own app).
    public var scope: String? = nil
    /// The browser's single sign-on this session was made under (``BrowserSession``); nil for the
    /// app's and the CLI's, which take no part in it.
    public var browserSessionId: String? = nil
    /// 1 when the client hears of the session's end over the back channel (version 35's trigger
    /// queues it); nil as 0.
    public var notifyLogout: Int? = nil

    enum CodingKeys: String, CodingKey {
        case id, userId, clientId, deviceId, passkeyId, amr, acr, authTime, createdAt, idleExpiresAt, absoluteExpiresAt, revokedAt, revokedReason, dpopJkt
        case scope, browserSessionId, notifyLogout
    }

    /// The columns of versions 34 and 35 are written only when set, so a row is still written to a
    /// database of an earlier version (the migrations' own tests make those).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(userId, forKey: .userId)
        try container.encode(clientId, forKey: .clientId)
        try container.encodeIfPresent(deviceId, forKey: .deviceId)
        try container.encodeIfPresent(passkeyId, forKey: .passkeyId)
        try container.encode(amr, forKey: .amr)
        try container.encode(acr, forKey: .acr)
        try container.encode(authTime, forKey: .authTime)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(idleExpiresAt, forKey: .idleExpiresAt)
        try container.encode(absoluteExpiresAt, forKey: .absoluteExpiresAt)
        try container.encodeIfPresent(revokedAt, forKey: .revokedAt)
        try container.encodeIfPresent(revokedReason, forKey: .revokedReason)
        try container.encodeIfPresent(dpopJkt, forKey: .dpopJkt)
        if let scope { try container.encode(scope, forKey: .scope) }
        if let browserSessionId { try container.encode(browserSessionId, forKey: .browserSessionId) }
        if let notifyLogout { try container.encode(notifyLogout, forKey: .notifyLogout) }
    }

    /// A new session of a login at `now`.
    public static func starting(
        userID: String, clientID: String, deviceID: String? = nil, passkeyID: String? = nil, amr: [String], acr: String, authTime: Date,
        idleLifetime: TimeInterval, absoluteLifetime: TimeInterval, dpopJKT: String? = nil, scope: String? = nil, now: Date
    ) -> Session {
        var session = Session(
            id: newID(), userId: userID, clientId: clientID, deviceId: deviceID, passkeyId: passkeyID, amr: amr.joined(separator: " "),
            acr: acr, authTime: authTime.millisecondsSince1970, createdAt: now.millisecondsSince1970,
            idleExpiresAt: now.addingTimeInterval(idleLifetime).millisecondsSince1970,
            absoluteExpiresAt: now.addingTimeInterval(absoluteLifetime).millisecondsSince1970,
            revokedAt: nil, revokedReason: nil, dpopJkt: dpopJKT
        )
        session.scope = scope
        return session
    }

    /// Whether the session can still be used at `now`.
    public func isActive(at now: Date) -> Bool {
        let time = now.millisecondsSince1970
        return revokedAt == nil && time < idleExpiresAt && time < absoluteExpiresAt
    }

    package init(id: String, userId: String, clientId: String, deviceId: String?, passkeyId: String?, amr: String, acr: String, authTime: Int64, createdAt: Int64, idleExpiresAt: Int64, absoluteExpiresAt: Int64, revokedAt: Int64?, revokedReason: String?, dpopJkt: String?, scope: String? = nil) {
        self.id = id
        self.userId = userId
        self.clientId = clientId
        self.deviceId = deviceId
        self.passkeyId = passkeyId
        self.amr = amr
        self.acr = acr
        self.authTime = authTime
        self.createdAt = createdAt
        self.idleExpiresAt = idleExpiresAt
        self.absoluteExpiresAt = absoluteExpiresAt
        self.revokedAt = revokedAt
        self.revokedReason = revokedReason
        self.dpopJkt = dpopJkt
        self.scope = scope
    }
}

/// An opaque refresh token, stored only as a hash; each use rotates it to a successor.
public struct RefreshToken: Sendable, Hashable, Codable {
    public let id: String
    public let sessionId: String
    public let tokenHash: Data
    public let parentId: String?
    public let createdAt: Int64
    public let expiresAt: Int64
    public let rotatedAt: Int64?
    public let successorId: String?

    package init(id: String, sessionId: String, tokenHash: Data, parentId: String?, createdAt: Int64, expiresAt: Int64, rotatedAt: Int64?, successorId: String?) {
        self.id = id
        self.sessionId = sessionId
        self.tokenHash = tokenHash
        self.parentId = parentId
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.rotatedAt = rotatedAt
        self.successorId = successorId
    }
}
