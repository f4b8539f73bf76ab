import Foundation
import PortvaktCore

/// A browser's single sign-on at Portvakt (OIDC Core §3.1.2.3 "end-user session"): made by a
/// BankID, Vipps, passkey or password login in the browser, found by the hash of its cookie's
/// reference, and resting under every client session it signed in (`sessions.browser_session_id`).
/// Times are Unix milliseconds.
public struct BrowserSession: Sendable, Hashable, Codable {
    public let id: String
    public let idHash: Data
    public let userId: String
    /// `bankid`, `vipps`, `password` or `passkey`.
    public let provider: String
    public let amr: String
    public let acr: String
    public let authTime: Int64
    public let passkeyId: String?
    public let createdAt: Int64
    public let idleExpiresAt: Int64
    public let absoluteExpiresAt: Int64

    public init(
        idHash: Data, userID: String, provider: String, amr: [String], acr: String, authTime: Date, passkeyID: String?,
        idle: TimeInterval, absolute: TimeInterval, now: Date
    ) {
        id = newID()
        self.idHash = idHash
        userId = userID
        self.provider = provider
        self.amr = amr.joined(separator: " ")
        self.acr = acr
        self.authTime = authTime.millisecondsSince1970
        passkeyId = passkeyID
        createdAt = now.millisecondsSince1970
        idleExpiresAt = now.addingTimeInterval(idle).millisecondsSince1970
        absoluteExpiresAt = now.addingTimeInterval(absolute).millisecondsSince1970
    }
}

/// A new sign-in in a browser, written in the login's own transaction.
public struct BrowserLogin: Sendable {
    public let session: BrowserSession
    /// The browser's earlier sign-in, which ends: the same person's client sessions move to the new
    /// one (a fresh authentication, as `prompt=login` asks, keeps them), another person's end.
    public let replacing: BrowserSession?

    public init(session: BrowserSession, replacing: BrowserSession?) {
        self.session = session
        self.replacing = replacing
    }
}

/// A person's consent to a third-party client (one row per person and client): the scopes it
/// covers, space-separated.
public struct Consent: Sendable, Hashable, Codable {
    public let userId: String
    public let clientId: String
    public let scope: String
    public let grantedAt: Int64

    public init(userID: String, clientID: String, scope: String, grantedAt: Date) {
        userId = userID
        clientId = clientID
        self.scope = scope
        self.grantedAt = grantedAt.millisecondsSince1970
    }
}

/// A back-channel logout waiting to be told (OIDC Back-Channel Logout 1.0): written by the
/// database itself whenever a session that asked for it ends (`sessions.notify_logout`).
public struct LogoutNotice: Sendable, Hashable, Codable {
    public let id: String
    public let clientId: String
    public let sessionId: String
    public let userId: String
    public let status: String
    public let attempts: Int
    public let nextAttemptAt: Int64
    public let lastError: String?
    public let createdAt: Int64
    public let sentAt: Int64?
    public let claimId: String?
    public let claimedUntil: Int64?
}
