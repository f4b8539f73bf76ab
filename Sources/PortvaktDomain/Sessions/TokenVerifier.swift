import Foundation
import JWTKit
import PortvaktCore

/// Checks tokens Portvakt signed: the signature by a current key (looked up by `kid` first, since
/// jwt-kit would fall back to its default key), and for access tokens the issuer, the audience
/// (one of the app clients) and the expiry. How a token is presented is the server's part.
public struct TokenVerifier: Sendable {
    let signingKeys: SigningKeyCache
    let address: PublicAddress
    let clientIDs: Set<String>
    let now: @Sendable () -> Date

    public init(signingKeys: SigningKeyCache, address: PublicAddress, clientIDs: Set<String>, now: @escaping @Sendable () -> Date) {
        self.signingKeys = signingKeys
        self.address = address
        self.clientIDs = clientIDs
        self.now = now
    }

    /// The access token's claims; nil when it is not ours, not for one of our clients, or expired.
    /// - Throws: only when the keys cannot be read (the database is away).
    public func accessClaims(of token: String, allowExpired: Bool = false) async throws -> AccessTokenClaims? {
        guard let claims = try await signedByUs(token, as: AccessTokenClaims.self, algorithms: [.es256]), claims.iss == address.current,
              clientIDs.contains(claims.aud), allowExpired || claims.exp > Int(now().timeIntervalSince1970)
        else { return nil }
        return claims
    }

    /// The claims of an ID token we issued (expired or not); nil when the token is not ours.
    public func idClaims(of token: String) async throws -> IDTokenClaims? {
        guard let claims = try await signedByUs(token, as: IDTokenClaims.self), claims.iss == address.current else { return nil }
        return claims
    }

    /// The payload of a token signed by one of Portvakt's current keys of `algorithms` (the
    /// header's `alg` the key's own), unchecked otherwise.
    /// - Throws: only when the keys cannot be read (the database is away).
    public func signedByUs<Payload: JWTPayload>(
        _ token: String, as payload: Payload.Type, algorithms: Set<SigningKey.Algorithm> = Set(SigningKey.Algorithm.allCases)
    ) async throws -> Payload? {
        guard let header = JOSEHeader(compactJWS: token), let algorithm = header.alg.flatMap(SigningKey.Algorithm.init(rawValue:)),
              algorithms.contains(algorithm), header.keyReferences.isEmpty, let kid = header.kid
        else { return nil }
        let (collection, keys) = try await signingKeys.collection(now: now())
        guard keys.verificationKeys.contains(where: { $0.kid == kid && $0.algorithm == algorithm }) else { return nil }
        return try? await collection.verify(token, as: Payload.self)
    }
}
