import Foundation
import JWTKit
import PortvaktCore
import PortvaktStorage

/// The token response (RFC 6749 §5.1, OIDC Core §3.1.3.3).
struct TokenResponse: Encodable, Sendable {
    let accessToken: String
    let tokenType = "Bearer"
    let expiresIn: Int
    let refreshToken: String
    let idToken: String?
    let scope: String

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
        case scope
    }
}

/// Signs access and ID tokens for a session with the active ES256 key.
struct TokenIssuer: Sendable {
    let broker: Broker

    func tokens(for session: Session, refreshToken: String, scope: String, nonce: String?, withIDToken: Bool) async throws -> TokenResponse {
        let now = broker.now()
        let (keys, set) = try await broker.signingKeys.collection(now: now)
        let kid = set.active.kid
        let organisations = try await broker.store.organisationRoles(userID: session.userId)
        let issuedAt = Int(now.timeIntervalSince1970)
        let lifetime = Int(broker.lifetimes.accessToken)
        let amr = session.amr.split(separator: " ").map(String.init)
        let access = AccessTokenClaims(
            iss: broker.issuer, sub: session.userId, aud: session.clientId, clientID: session.clientId,
            exp: issuedAt + lifetime, iat: issuedAt, jti: randomToken(bytes: 16), sid: session.id, scope: scope,
            amr: amr, acr: session.acr, authTime: Int(session.authTime / 1000),
            org: organisations.map { OrganisationClaim(id: $0.organisationID, slug: $0.slug, roles: $0.roles.map(\.rawValue)) }
        )
        let accessToken = try await keys.sign(access, kid: JWKIdentifier(string: kid), header: ["typ": "at+jwt"])
        var idToken: String?
        if withIDToken, scope.split(separator: " ").contains("openid") {
            let name = try await broker.store.user(id: session.userId)?.displayName ?? ""
            let claims = IDTokenClaims(
                iss: broker.issuer, sub: session.userId, aud: session.clientId, exp: issuedAt + lifetime, iat: issuedAt,
                authTime: Int(session.authTime / 1000), nonce: nonce, sid: session.id, amr: amr, acr: session.acr, name: name
            )
            idToken = try await keys.sign(claims, kid: JWKIdentifier(string: kid))
        }
        return TokenResponse(accessToken: accessToken, expiresIn: lifetime, refreshToken: refreshToken, idToken: idToken, scope: scope)
    }
}
