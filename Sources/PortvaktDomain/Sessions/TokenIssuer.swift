import Foundation
import JWTKit
import PortvaktCore
import PortvaktModels
import PortvaktProtocol

/// Signs access tokens for a session with the active ES256 key, and ID tokens with the active key
/// of the algorithm the client registered (`id_token_signed_response_alg`, RS256 by default).
public struct TokenIssuer: Sendable {
    let store: any TokenIssuerStore
    public let signingKeys: SigningKeyCache
    public let address: PublicAddress
    public let lifetimes: SessionLifetimes
    /// Each client's ID token algorithm; a client not named gets RS256 (OIDC Core §3.1.3.7).
    let idTokenAlgorithms: [String: SigningKey.Algorithm]
    public let now: @Sendable () -> Date

    public init(
        store: any TokenIssuerStore, signingKeys: SigningKeyCache, address: PublicAddress, lifetimes: SessionLifetimes,
        idTokenAlgorithms: [String: SigningKey.Algorithm] = [:], now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.signingKeys = signingKeys
        self.address = address
        self.lifetimes = lifetimes
        self.idTokenAlgorithms = idTokenAlgorithms
        self.now = now
    }

    /// The `acr` of a session from biometric unlock, and of a step-up's elevated token.
    public static let deviceACR = Authentication.deviceACR
    public static let stepUpACR = Authentication.stepUpACR

    /// - Parameters:
    ///   - organisations: the user's organisations and roles when the caller has read them already.
    ///   - user: the session's user when the caller has read it already (the ID token names them).
    /// The claims follow the scopes the session was granted (``ClaimScopes``).
    public func tokens(
        for session: Session, organisations: [OrganisationRoles]? = nil, user: User? = nil, refreshToken: String, nonce: String?,
        withIDToken: Bool
    ) async throws -> TokenResponse {
        let now = self.now()
        let (keys, set) = try await signingKeys.collection(now: now)
        let kid = set.active.kid
        let lifetime = Int(lifetimes.accessToken)
        let amr = session.amr.split(separator: " ").map(String.init)
        let scope = session.scope ?? ClaimScopes.everything
        let access = try await accessClaims(session, organisations: organisations, amr: amr, acr: session.acr, authTime: Int(session.authTime / 1000), lifetime: lifetime, now: now)
        let accessToken = try await keys.sign(access, kid: JWKIdentifier(string: kid), header: ["typ": "at+jwt"])
        let issuedAt = Int(now.timeIntervalSince1970)
        var idToken: String?
        var known = user.flatMap { $0.id == session.userId ? $0 : nil }
        if withIDToken, scope.split(separator: " ").contains("openid") {
            let user = if let known { known } else { try await store.user(id: session.userId) }
            known = user
            let granted = ClaimScopes(session.scope)
            var claims = IDTokenClaims(
                iss: address.current, sub: session.userId, aud: session.clientId, exp: issuedAt + lifetime, iat: issuedAt,
                authTime: Int(session.authTime / 1000), nonce: nonce, sid: session.id, amr: amr, acr: session.acr
            )
            if granted.name { claims.name = user?.displayName ?? "" }
            if granted.email { claims.email = user?.email }
            claims.org = access.org
            let algorithm = idTokenAlgorithms[session.clientId] ?? .rs256
            idToken = try await keys.sign(claims, kid: JWKIdentifier(string: set.active(algorithm).kid))
        }
        // The device trust as DeviceTrust decides it (from the user's last BankID or Vipps login,
        // on any client), when the user is at hand: logins and unlocks; a refresh says nothing.
        // A password login, or a password-level key's unlock, answers for a key of that level,
        // which the login would enrol (a phone with an eID-level key learns its end at its unlock).
        let level: DeviceAssurance = session.acr == Authentication.devicePasswordACR || session.acr == Authentication.passwordACR
            ? .password : .electronicID
        let trustedUntil = known.flatMap { DeviceTrust(lifetimes: lifetimes).trustedUntil($0, assurance: level) }
        return TokenResponse(
            accessToken: accessToken, tokenType: session.tokenType, expiresIn: lifetime, refreshToken: refreshToken, idToken: idToken, scope: scope,
            sessionExpiresIn: max(0, Int((Double(session.absoluteExpiresAt) / 1000 - now.timeIntervalSince1970).rounded(.down))),
            deviceTrustExpiresIn: trustedUntil.map { max(0, Int($0.timeIntervalSince(now).rounded(.down))) }
        )
    }

    /// The logout token that tells `clientID` its session `sessionID` ended, signed as its ID
    /// tokens are (the key of the algorithm it registered), valid two minutes.
    public func logoutToken(clientID: String, sessionID: String, userID: String) async throws -> String {
        let now = self.now()
        let (keys, set) = try await signingKeys.collection(now: now)
        let issuedAt = Int(now.timeIntervalSince1970)
        let claims = LogoutTokenClaims(
            iss: address.current, sub: userID, aud: clientID, iat: issuedAt, exp: issuedAt + 120, jti: randomToken(bytes: 16), sid: sessionID,
            events: [LogoutTokenClaims.event: [:]]
        )
        let algorithm = idTokenAlgorithms[clientID] ?? .rs256
        return try await keys.sign(claims, kid: JWKIdentifier(string: set.active(algorithm).kid), header: ["typ": "logout+jwt"])
    }

    /// How a step-up was proved: a device key after biometrics, or the password entered again.
    public enum StepUpProof: Sendable {
        case deviceKey(BiometricKind)
        case password

        var amr: [String] {
            switch self {
            case .deviceKey(let biometric): ["hwk", biometric.amr]
            case .password: ["pwd"]
            }
        }

        var acr: String {
            switch self {
            case .deviceKey: Authentication.stepUpACR
            case .password: Authentication.passwordStepUpACR
            }
        }
    }

    /// A short-lived access token of the same session that also allows `action`: the check just
    /// now is its `auth_time`, and its `acr` and `amr` say how it was made.
    public func stepUpToken(for session: Session, action: StepUpAction, proof: StepUpProof) async throws -> StepUpResponse {
        let now = self.now()
        let (keys, set) = try await signingKeys.collection(now: now)
        let lifetime = Int(lifetimes.stepUp)
        var claims = try await accessClaims(
            session, amr: proof.amr, acr: proof.acr, authTime: Int(now.timeIntervalSince1970), lifetime: lifetime, now: now
        )
        claims.stepUp = action.rawValue
        let token = try await keys.sign(claims, kid: JWKIdentifier(string: set.active.kid), header: ["typ": "at+jwt"])
        return StepUpResponse(accessToken: token, tokenType: session.tokenType, expiresIn: lifetime, action: action.rawValue)
    }

    private func accessClaims(
        _ session: Session, organisations: [OrganisationRoles]? = nil, amr: [String], acr: String, authTime: Int, lifetime: Int, now: Date
    ) async throws -> AccessTokenClaims {
        let granted = ClaimScopes(session.scope)
        var org: [OrganisationClaim]?
        if granted.organisations {
            let organisations = if let organisations { organisations } else { try await store.organisationRoles(userID: session.userId) }
            org = organisations.map { OrganisationClaim(id: $0.organisationID, slug: $0.slug, roles: $0.roles.map(\.rawValue)) }
        }
        let issuedAt = Int(now.timeIntervalSince1970)
        return AccessTokenClaims(
            iss: address.current, sub: session.userId, aud: session.clientId, clientID: session.clientId,
            exp: issuedAt + lifetime, iat: issuedAt, jti: randomToken(bytes: 16), sid: session.id, scope: session.scope ?? ClaimScopes.everything,
            amr: amr, acr: acr, authTime: authTime,
            org: org,
            cnf: session.dpopJkt.map(Confirmation.init(jkt:))
        )
    }
}

extension Session {
    /// How the session's access tokens are presented.
    public var tokenType: String { dpopJkt == nil ? "Bearer" : "DPoP" }
}
