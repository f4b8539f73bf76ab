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

    /// Takes a code out of the store in one `DELETE … RETURNING` statement, so that of two
    /// concurrent redemptions exactly one gets it. Returns nil when the code is unknown, already
    /// used, or expired at `now` (an expired code is deleted all the same).
    public func redeemAuthorizationCode(hash: Data, now: Date = Date()) async throws -> AuthorizationCode? {
        let code = try await write { db in
            try await db.delete(from: "authorization_codes").where("code_hash", .equal, hash)
                .returning(SQLLiteral.all).first(as: AuthorizationCode.self)
        }
        guard let code, code.expiresAt > now.millisecondsSince1970 else { return nil }
        return code
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
