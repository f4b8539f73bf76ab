import Foundation

/// An authorization code issued to the app (RFC 6749 §4.1.2), stored only as a hash.
public struct AuthorizationCode: Sendable, Hashable, Codable {
    public let codeHash: Data
    public let sessionId: String
    public let clientId: String
    public let redirectUri: String
    /// The PKCE S256 challenge (RFC 7636 §4.2) the redeemer's verifier must match; empty for a
    /// confidential client's code issued without one (the column predates that case).
    public let codeChallenge: String
    public let scope: String
    public let nonce: String?
    public let createdAt: Int64
    public let expiresAt: Int64
    /// `dpop_jkt` of the authorization request (RFC 9449 §10): only a proof by this key redeems the code.
    public let dpopJkt: String?

    public init(
        codeHash: Data, sessionID: String, clientID: String, redirectURI: String, codeChallenge: String?,
        scope: String, nonce: String?, createdAt: Date, expiresAt: Date, dpopJKT: String? = nil
    ) {
        self.codeHash = codeHash
        self.sessionId = sessionID
        self.clientId = clientID
        self.redirectUri = redirectURI
        self.codeChallenge = codeChallenge ?? ""
        self.scope = scope
        self.nonce = nonce
        self.createdAt = createdAt.millisecondsSince1970
        self.expiresAt = expiresAt.millisecondsSince1970
        self.dpopJkt = dpopJKT
    }
}

extension AuthorizationCode {
    /// The PKCE challenge, nil when the code was issued without one.
    public var challenge: String? { codeChallenge.isEmpty ? nil : codeChallenge }
}

/// What presenting a code found.
public enum CodeRedemption: Sendable {
    /// The first redemption: the code, taken.
    case redeemed(AuthorizationCode)
    /// The code was redeemed before and has not yet expired: the session it made (a replay).
    case replayed(sessionID: String)
    /// Unknown, or expired.
    case unknown

    /// The code, on its first redemption only.
    public var code: AuthorizationCode? {
        if case .redeemed(let code) = self { code } else { nil }
    }

    /// The session a replayed code made.
    public var replayedSession: String? {
        if case .replayed(let sessionID) = self { sessionID } else { nil }
    }
}
