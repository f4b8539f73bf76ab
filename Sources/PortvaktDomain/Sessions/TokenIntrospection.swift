import Foundation

/// The answer of token introspection (RFC 7662 §2.2): `active` false for anything not a live
/// token of the asking client, else what the token stands for, with `cnf.jkt` when it is bound
/// to a DPoP key (RFC 9449 §6.2).
public struct TokenIntrospection: Encodable, Sendable, Equatable {
    public var active: Bool
    public var tokenType: String?
    public var clientID: String?
    public var sub: String?
    public var iss: String?
    public var aud: String?
    public var scope: String?
    public var exp: Int?
    public var iat: Int?
    public var sid: String?
    public var acr: String?
    public var authTime: Int?
    public var cnf: Confirmation?

    public static let inactive = TokenIntrospection(active: false)

    enum CodingKeys: String, CodingKey {
        case active, sub, iss, aud, scope, exp, iat, sid, acr, cnf
        case tokenType = "token_type"
        case clientID = "client_id"
        case authTime = "auth_time"
    }
}

extension SessionService {
    /// RFC 7662: what `token` is, for the client it was issued to. An access token of a live
    /// session, unexpired; a refresh token that is its session's current one. Another client's
    /// token is inactive to this one, as are ended sessions and rotated refresh tokens.
    public func introspect(token: String, clientID: String, issuer: String) async throws -> TokenIntrospection {
        let now = self.now()
        if let (session, isCurrent) = try await store.session(refreshTokenHash: RefreshTokenSecret.hash(token), now: now) {
            guard isCurrent, session.clientId == clientID, session.isActive(at: now) else { return .inactive }
            return TokenIntrospection(
                active: true, tokenType: "refresh_token", clientID: session.clientId, sub: session.userId, iss: issuer,
                exp: Int(min(session.idleExpiresAt, session.absoluteExpiresAt) / 1000), iat: nil, sid: session.id,
                acr: session.acr, authTime: Int(session.authTime / 1000), cnf: session.dpopJkt.map(Confirmation.init(jkt:))
            )
        }
        guard let claims = try await verifier.accessClaims(of: token), claims.aud == clientID,
              let session = try await store.session(id: claims.sid), session.isActive(at: now)
        else { return .inactive }
        return TokenIntrospection(
            active: true, tokenType: claims.cnf == nil ? "Bearer" : "DPoP", clientID: claims.clientID, sub: claims.sub, iss: claims.iss,
            aud: claims.aud, scope: claims.scope, exp: claims.exp, iat: claims.iat, sid: claims.sid, acr: claims.acr,
            authTime: claims.authTime, cnf: claims.cnf
        )
    }
}
