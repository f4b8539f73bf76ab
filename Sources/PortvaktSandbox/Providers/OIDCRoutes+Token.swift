import PortvaktCore
import PortvaktHTTP
import Foundation
import Hummingbird

extension OIDCRoutes {
    /// The token endpoint: authorization code → access token and ID token (RFC 6749 §4.1.3,
    /// RFC 7636 §4.6, OpenID Connect Core §3.1.3). No refresh tokens, as at Vipps.
    func token(_ request: Request) async throws -> Response {
        let form = try await request.formFields()
        let now = sandbox.now
        let base = try sandbox.baseURL(for: request)
        let authentication = ClientAuthentication(registry: sandbox.clients, state: simulated.state, provider: provider)
        let client: SandboxClient
        do {
            client = try await authentication.authenticate(
                basic: request.basicCredentials, form: form, audience: [base + provider.tokenPath, issuer(base: base)], now: now
            )
        } catch {
            return try Responses.oauthError("invalid_client", error.description, status: .unauthorized, challenge: #"Basic realm="sandbox""#)
        }
        guard form["grant_type"] == "authorization_code" else {
            return try Responses.oauthError("unsupported_grant_type", "Only grant_type=authorization_code is supported.")
        }
        guard let code = form["code"] else { return try Responses.oauthError("invalid_request", "code is required.") }

        let faults = await sandbox.faults.settings(for: provider)
        let redemption = await simulated.state.redeem(code, now: now)
        if faults.contains(.expiredCode) { return try Responses.oauthError("invalid_grant", "The authorization code has expired.") }
        if faults.contains(.reusedCode) { return try Responses.oauthError("invalid_grant", "The authorization code has already been used.") }
        let grant: AuthorizationGrant
        switch redemption {
        case .valid(let valid): grant = valid
        case .expired: return try Responses.oauthError("invalid_grant", "The authorization code has expired.")
        case .replayed: return try Responses.oauthError("invalid_grant", "The authorization code has already been used.")
        case .unknown: return try Responses.oauthError("invalid_grant", "The authorization code is not valid.")
        }
        guard grant.clientID == client.clientID else {
            return try Responses.oauthError("invalid_grant", "The authorization code was issued to another client.")
        }
        guard form["redirect_uri"] == grant.redirectURI else {
            return try Responses.oauthError("invalid_grant", "redirect_uri does not match the authorization request.")
        }
        switch (grant.codeChallenge, form["code_verifier"]) {
        case (nil, nil):
            break
        case (let challenge?, let verifier?) where PKCE.verify(verifier: verifier, challenge: challenge):
            break
        default:
            return try Responses.oauthError("invalid_grant", "PKCE verification failed.")
        }

        let lifetime = sandbox.configuration.accessTokenLifetime.timeInterval
        let accessToken = await simulated.state.issueAccessToken(for: grant, code: code, expiresAt: now.addingTimeInterval(lifetime))
        let idToken = try simulated.forger.sign(idTokenClaims(for: grant, issuer: issuer(base: base), client: client, faults: faults, now: now), faults: faults)
        return try Responses.json(ProviderTokenResponse(
            accessToken: accessToken, tokenType: "Bearer", expiresIn: Int(lifetime), idToken: idToken,
            scope: grant.scopes.sorted().joined(separator: " ")
        ))
    }

    private func idTokenClaims(for grant: AuthorizationGrant, issuer: String, client: SandboxClient, faults: FaultSettings, now: Date) -> ProviderIDTokenClaims {
        let user = grant.user
        let issuedAt = faults.contains(.expiredIDToken) ? now.addingTimeInterval(-3600) : now
        let lifetime = sandbox.configuration.idTokenLifetime.timeInterval
        var claims = ProviderIDTokenClaims(
            iss: faults.contains(.wrongIssuer) ? "https://issuer.invalid/sandbox" : issuer,
            sub: provider == .vipps ? user.vippsSubject : user.bankIDSubject,
            aud: faults.contains(.wrongAudience) ? "some-other-client" : client.clientID,
            exp: Int(issuedAt.addingTimeInterval(lifetime).timeIntervalSince1970),
            iat: Int(issuedAt.timeIntervalSince1970),
            authTime: Int(grant.authTime.timeIntervalSince1970),
            nonce: faults.contains(.wrongNonce) ? randomToken() : grant.nonce,
            azp: client.clientID,
            sid: grant.sessionID
        )
        if let level = grant.level {
            claims.acr = level.acr
            claims.amr = [level.amr]
            if grant.scopes.contains("profile") {
                claims.name = user.name
                claims.givenName = user.givenName
                claims.familyName = user.familyName
                claims.birthdate = user.birthdate
            }
            if grant.scopes.contains("nnin_altsub"), client.personnummerApproved, !faults.contains(.personnummerMissing) {
                claims.nninAltsub = faults.released(user.personnummer)
            }
        }
        if faults.contains(.bankIDHighACR) {
            claims.acr = "urn:bankid:bid;LOA=4"
            claims.amr = ["BID"]
        }
        return claims
    }
}

/// RFC 6749 §5.1 with OpenID Connect's `id_token`.
struct ProviderTokenResponse: Codable, Sendable {
    let accessToken: String
    let tokenType: String
    let expiresIn: Int
    let idToken: String
    let scope: String

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case idToken = "id_token"
        case scope
    }
}
