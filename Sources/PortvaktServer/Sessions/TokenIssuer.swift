import Foundation
import JWTKit
import PortvaktCore
import PortvaktDomain
import PortvaktStorage

/// The token response (RFC 6749 §5.1, OIDC Core §3.1.3.3).
struct TokenResponse: Encodable, Sendable {
    let accessToken: String
    /// `DPoP` when the tokens are bound to the client's key (RFC 9449 §5), else `Bearer`.
    let tokenType: String
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

/// The elevated token of a step-up (the `step_up` claim names the action).
struct StepUpResponse: Encodable, Sendable {
    let accessToken: String
    let tokenType: String
    let expiresIn: Int
    let action: String

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case action
    }
}

/// Signs access and ID tokens for a session with the active ES256 key.
struct TokenIssuer: Sendable {
    let broker: Broker

    /// The `acr` of a session from biometric unlock, and of a step-up's elevated token.
    static let deviceACR = Authentication.deviceACR
    static let stepUpACR = Authentication.stepUpACR

    /// - Parameters:
    ///   - organisations: the user's organisations and roles when the caller has read them already.
    ///   - user: the session's user when the caller has read it already (the ID token names them).
    func tokens(
        for session: Session, organisations: [OrganisationRoles]? = nil, user: User? = nil, refreshToken: String, scope: String, nonce: String?,
        withIDToken: Bool
    ) async throws -> TokenResponse {
        let now = broker.now()
        let (keys, set) = try await broker.signingKeys.collection(now: now)
        let kid = set.active.kid
        let lifetime = Int(broker.lifetimes.accessToken)
        let amr = session.amr.split(separator: " ").map(String.init)
        let access = try await accessClaims(session, organisations: organisations, scope: scope, amr: amr, acr: session.acr, authTime: Int(session.authTime / 1000), lifetime: lifetime, now: now)
        let accessToken = try await keys.sign(access, kid: JWKIdentifier(string: kid), header: ["typ": "at+jwt"])
        let issuedAt = Int(now.timeIntervalSince1970)
        var idToken: String?
        if withIDToken, scope.split(separator: " ").contains("openid") {
            let user = if let user, user.id == session.userId { user } else { try await broker.store.user(id: session.userId) }
            let name = user?.displayName ?? ""
            let claims = IDTokenClaims(
                iss: broker.issuer, sub: session.userId, aud: session.clientId, exp: issuedAt + lifetime, iat: issuedAt,
                authTime: Int(session.authTime / 1000), nonce: nonce, sid: session.id, amr: amr, acr: session.acr, name: name
            )
            idToken = try await keys.sign(claims, kid: JWKIdentifier(string: kid))
        }
        return TokenResponse(
            accessToken: accessToken, tokenType: session.tokenType, expiresIn: lifetime, refreshToken: refreshToken, idToken: idToken, scope: scope
        )
    }

    /// A short-lived access token of the same session that also allows `action`: the biometric
    /// check just now is its `auth_time`.
    func stepUpToken(for session: Session, action: StepUpAction, biometric: BiometricKind) async throws -> StepUpResponse {
        let now = broker.now()
        let (keys, set) = try await broker.signingKeys.collection(now: now)
        let lifetime = Int(broker.lifetimes.stepUp)
        var claims = try await accessClaims(
            session, scope: "openid", amr: ["hwk", biometric.amr], acr: Self.stepUpACR, authTime: Int(now.timeIntervalSince1970), lifetime: lifetime, now: now
        )
        claims.stepUp = action.rawValue
        let token = try await keys.sign(claims, kid: JWKIdentifier(string: set.active.kid), header: ["typ": "at+jwt"])
        return StepUpResponse(accessToken: token, tokenType: session.tokenType, expiresIn: lifetime, action: action.rawValue)
    }

    private func accessClaims(
        _ session: Session, organisations: [OrganisationRoles]? = nil, scope: String, amr: [String], acr: String, authTime: Int, lifetime: Int, now: Date
    ) async throws -> AccessTokenClaims {
        let organisations = if let organisations { organisations } else { try await broker.store.organisationRoles(userID: session.userId) }
        let issuedAt = Int(now.timeIntervalSince1970)
        return AccessTokenClaims(
            iss: broker.issuer, sub: session.userId, aud: session.clientId, clientID: session.clientId,
            exp: issuedAt + lifetime, iat: issuedAt, jti: randomToken(bytes: 16), sid: session.id, scope: scope,
            amr: amr, acr: acr, authTime: authTime,
            org: organisations.map { OrganisationClaim(id: $0.organisationID, slug: $0.slug, roles: $0.roles.map(\.rawValue)) },
            cnf: session.dpopJkt.map(Confirmation.init(jkt:))
        )
    }
}

extension Session {
    /// How the session's access tokens are presented.
    var tokenType: String { dpopJkt == nil ? "Bearer" : "DPoP" }
}
