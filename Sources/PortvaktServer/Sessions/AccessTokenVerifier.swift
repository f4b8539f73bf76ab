import Foundation
import JWTKit
import PortvaktStorage

/// Checks Portvakt's own access tokens for the resource endpoints: signature by a current key
/// (looked up by `kid` first, since jwt-kit would fall back to its default key), issuer, expiry,
/// and that the session is still active.
struct AccessTokenVerifier: Sendable {
    let broker: Broker

    func claims(of token: String, allowExpired: Bool = false) async throws(OAuthFailure) -> AccessTokenClaims {
        let invalid = OAuthFailure(error: "invalid_token", description: "The access token is invalid or expired.", message: .sessionExpired, status: .unauthorized)
        guard let claims = await signedByUs(token, as: AccessTokenClaims.self), claims.iss == broker.issuer, broker.client(claims.aud) != nil,
              allowExpired || claims.exp > Int(broker.now().timeIntervalSince1970)
        else { throw invalid }
        return claims
    }

    /// The payload of a token signed ES256 by one of Portvakt's current keys, unchecked otherwise.
    func signedByUs<Payload: JWTPayload>(_ token: String, as payload: Payload.Type) async -> Payload? {
        let now = broker.now()
        guard let header = JOSEHeader(compactJWS: token), header.alg == "ES256", header.keyReferences.isEmpty, let kid = header.kid,
              let (collection, keys) = try? await broker.signingKeys.collection(now: now),
              keys.verificationKeys.contains(where: { $0.kid == kid })
        else { return nil }
        return try? await collection.verify(token, as: Payload.self)
    }

    /// The claims, when the token is valid and its session is still active.
    func activeSession(bearer token: String?) async throws(OAuthFailure) -> (claims: AccessTokenClaims, session: Session) {
        guard let token else {
            throw OAuthFailure(error: "invalid_token", description: "A Bearer access token is required.", status: .unauthorized)
        }
        let claims = try await claims(of: token)
        guard let session = try? await broker.store.session(id: claims.sid), session.isActive(at: broker.now()) else {
            throw OAuthFailure(error: "invalid_token", description: "The session has ended.", message: .sessionExpired, status: .unauthorized)
        }
        return (claims, session)
    }
}
