import Foundation
import JWTKit

/// Portvakt's access token (RFC 9068 shape): who, which session, how they logged in, and their
/// organisations and roles. Signed ES256; about ten minutes.
struct AccessTokenClaims: JWTPayload {
    let iss: String
    let sub: String
    let aud: String
    let clientID: String
    let exp: Int
    let iat: Int
    let jti: String
    let sid: String
    let scope: String
    let amr: [String]
    let acr: String
    let authTime: Int
    let org: [OrganisationClaim]
    /// Set only on an elevated token: the action a biometric step-up allowed (RFC 9470 style).
    var stepUp: String? = nil
    /// The DPoP key the token is bound to (RFC 9449 §6.1); nil for a Bearer token.
    var cnf: Confirmation? = nil

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, jti, sid, scope, amr, acr, org, cnf
        case clientID = "client_id"
        case authTime = "auth_time"
        case stepUp = "step_up"
    }

    /// Time and audience are checked by ``AccessTokenVerifier`` with its clock.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// `cnf` (RFC 7800) with the RFC 7638 thumbprint of the client's DPoP key.
struct Confirmation: Codable, Sendable, Hashable {
    let jkt: String
}

struct OrganisationClaim: Codable, Sendable, Hashable {
    let id: String
    let slug: String
    let roles: [String]
}

/// The OIDC ID token for the app (OIDC Core §2).
struct IDTokenClaims: JWTPayload {
    let iss: String
    let sub: String
    let aud: String
    let exp: Int
    let iat: Int
    let authTime: Int
    let nonce: String?
    let sid: String
    let amr: [String]
    let acr: String
    let name: String

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nonce, sid, amr, acr, name
        case authTime = "auth_time"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
