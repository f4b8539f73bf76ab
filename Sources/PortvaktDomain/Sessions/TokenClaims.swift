import Foundation
import JWTKit

/// Portvakt's access token (RFC 9068 shape): who, which session, how they logged in, and their
/// organisations and roles. Signed ES256; about ten minutes.
public struct AccessTokenClaims: JWTPayload {
    public let iss: String
    public let sub: String
    public let aud: String
    public let clientID: String
    public let exp: Int
    public let iat: Int
    public let jti: String
    public let sid: String
    public let scope: String
    public let amr: [String]
    public let acr: String
    public let authTime: Int
    /// The organisations and roles, only with the scope `organisations` (``ClaimScopes``).
    public let org: [OrganisationClaim]?
    /// Set only on an elevated token: the action a biometric step-up allowed (RFC 9470 style).
    public var stepUp: String? = nil
    /// The DPoP key the token is bound to (RFC 9449 §6.1); nil for a Bearer token.
    public var cnf: Confirmation? = nil

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, jti, sid, scope, amr, acr, org, cnf
        case clientID = "client_id"
        case authTime = "auth_time"
        case stepUp = "step_up"
    }

    /// Time and audience are checked by ``AccessTokenVerifier`` with its clock.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// `cnf` (RFC 7800) with the RFC 7638 thumbprint of the client's DPoP key.
public struct Confirmation: Codable, Sendable, Hashable {
    public let jkt: String
}

public struct OrganisationClaim: Codable, Sendable, Hashable {
    public let id: String
    public let slug: String
    public let roles: [String]
}

/// The OIDC ID token for the app (OIDC Core §2).
public struct IDTokenClaims: JWTPayload {
    public let iss: String
    public let sub: String
    public let aud: String
    public let exp: Int
    public let iat: Int
    public let authTime: Int
    public let nonce: String?
    public let sid: String
    public let amr: [String]
    public let acr: String
    /// With the scope `profile`.
    public var name: String?
    /// With the scope `email`, when the account has one.
    public var email: String?
    /// With the scope `organisations`.
    public var org: [OrganisationClaim]?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nonce, sid, amr, acr, name, email, org
        case authTime = "auth_time"
    }

    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// A back-channel logout token (OIDC Back-Channel Logout 1.0 §2.4): who, which session, the
/// logout event, no `nonce`; `typ` `logout+jwt` in its header.
public struct LogoutTokenClaims: JWTPayload {
    public static let event = "http://schemas.openid.net/event/backchannel-logout"
    public let iss: String
    public let sub: String
    public let aud: String
    public let iat: Int
    public let exp: Int
    public let jti: String
    public let sid: String
    public let events: [String: [String: String]]

    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
