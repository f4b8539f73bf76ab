import Foundation
import JWTKit
import PortvaktStorage

/// Checks Portvakt's own access tokens for the resource endpoints: signature by a current key
/// (looked up by `kid` first, since jwt-kit would fall back to its default key), issuer, expiry,
/// and that the session is still active.
struct AccessTokenVerifier: Sendable {
    let broker: Broker

    /// - Throws: 401 `invalid_token` for a token that is not ours or expired; 503
    ///   `temporarily_unavailable` when the keys cannot be read (the app must not log out for that).
    func claims(of token: String, allowExpired: Bool = false) async throws(OAuthFailure) -> AccessTokenClaims {
        let invalid = OAuthFailure(error: "invalid_token", description: "The access token is invalid or expired.", message: .sessionExpired, status: .unauthorized)
        let signed: AccessTokenClaims?
        do {
            signed = try await signedByUs(token, as: AccessTokenClaims.self)
        } catch {
            broker.logger.error("Access tokens cannot be checked: the signing keys could not be read", metadata: ["error": "\(error)"])
            throw .temporarilyUnavailable
        }
        guard let claims = signed, claims.iss == broker.issuer, broker.client(claims.aud) != nil,
              allowExpired || claims.exp > Int(broker.now().timeIntervalSince1970)
        else { throw invalid }
        return claims
    }

    /// The payload of a token signed ES256 by one of Portvakt's current keys, unchecked otherwise.
    /// - Throws: only when the keys cannot be read (the database is away).
    func signedByUs<Payload: JWTPayload>(_ token: String, as payload: Payload.Type) async throws -> Payload? {
        guard let header = JOSEHeader(compactJWS: token), header.alg == "ES256", header.keyReferences.isEmpty, let kid = header.kid else { return nil }
        let (collection, keys) = try await broker.signingKeys.collection(now: broker.now())
        guard keys.verificationKeys.contains(where: { $0.kid == kid }) else { return nil }
        return try? await collection.verify(token, as: Payload.self)
    }

    /// The claims, when the token is valid and its session is still active.
    func activeSession(bearer token: String?) async throws(OAuthFailure) -> (claims: AccessTokenClaims, session: Session) {
        guard let token else {
            throw OAuthFailure(error: "invalid_token", description: "A Bearer access token is required.", status: .unauthorized)
        }
        let claims = try await claims(of: token)
        let session: Session?
        do {
            session = try await broker.store.session(id: claims.sid)
        } catch {
            broker.logger.error("The session could not be read", metadata: ["error": "\(error)"])
            throw .temporarilyUnavailable
        }
        guard let session, session.isActive(at: broker.now()) else {
            throw OAuthFailure(error: "invalid_token", description: "The session has ended.", message: .sessionExpired, status: .unauthorized)
        }
        return (claims, session)
    }
}
