import Foundation
import SQLKit

/// An authorization code issued to the app (RFC 6749 §4.1.2), stored only as a hash.
public struct AuthorizationCode: Sendable, Hashable, Codable {
    public let codeHash: Data
    public let sessionId: String
    public let clientId: String
    public let redirectUri: String
    /// The PKCE S256 challenge (RFC 7636 §4.2) the redeemer's verifier must match.
    public let codeChallenge: String
    public let scope: String
    public let nonce: String?
    public let createdAt: Int64
    public let expiresAt: Int64
    /// `dpop_jkt` of the authorization request (RFC 9449 §10): only a proof by this key redeems the code.
    public let dpopJkt: String?

    public init(
        codeHash: Data, sessionID: String, clientID: String, redirectURI: String, codeChallenge: String,
        scope: String, nonce: String?, createdAt: Date, expiresAt: Date, dpopJKT: String? = nil
    ) {
        self.codeHash = codeHash
        self.sessionId = sessionID
        self.clientId = clientID
        self.redirectUri = redirectURI
        self.codeChallenge = codeChallenge
        self.scope = scope
        self.nonce = nonce
        self.createdAt = createdAt.millisecondsSince1970
        self.expiresAt = expiresAt.millisecondsSince1970
        self.dpopJkt = dpopJKT
    }
}

extension PortvaktStore {
    public func insertAuthorizationCode(_ code: AuthorizationCode) async throws {
        try await write { db in try await db.insert(into: "authorization_codes").row(code).run() }
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

    /// Takes a code in one `UPDATE … RETURNING` statement, so that of two concurrent redemptions
    /// exactly one gets it. The row stays, marked redeemed, until it would have expired: a later
    /// redemption is then a ``CodeRedemption/replayed(sessionID:)``.
    public func redeemAuthorizationCode(hash: Data, now: Date = Date()) async throws -> CodeRedemption {
        let time = now.millisecondsSince1970
        return try await write { db in
            if let code = try await db.update("authorization_codes").set("redeemed_at", to: time)
                .where("code_hash", .equal, hash).where("redeemed_at", .is, SQLLiteral.null)
                .returning(SQLLiteral.all).first(as: AuthorizationCode.self) {
                return code.expiresAt > time ? .redeemed(code) : .unknown
            }
            guard let used = try await db.select().column("session_id").column("expires_at").from("authorization_codes")
                .where("code_hash", .equal, hash).first()
            else { return .unknown }
            return try used.decode(column: "expires_at", as: Int64.self) > time
                ? .replayed(sessionID: try used.decode(column: "session_id", as: String.self)) : .unknown
        }
    }
}

extension PortvaktStore {
    /// Deletes codes nobody redeemed before they expired; returns how many.
    @discardableResult
    public func purgeExpiredAuthorizationCodes(now: Date = Date()) async throws -> Int {
        try await write { db in
            try await db.delete(from: "authorization_codes").where("expires_at", .lessThanOrEqual, now.millisecondsSince1970)
                .returning("session_id").all().count
        }
    }
}
