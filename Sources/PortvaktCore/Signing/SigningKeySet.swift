import Foundation
import JWTKit

/// The keys Portvakt signs and verifies with: one active key, and retired keys kept for
/// `retention` after their retirement so that tokens they signed still verify.
public struct SigningKeySet: Sendable {
    /// Longer than any token signed with a key lives, so rotation never breaks a valid token.
    public static let defaultRetention: TimeInterval = 24 * 3600

    /// A new key is published at once (in the JWKS, and verifying) but signs only this long after
    /// its creation: every instance rereads the keys at least once a minute, so by the time a
    /// token carries the new key's `kid`, every instance accepts it.
    public static let publicationDelay: TimeInterval = 90

    public let active: SigningKey
    /// The active key and the retired keys still inside their retention.
    public let verificationKeys: [SigningKey]

    /// The public keys, for `/.well-known/jwks.json`.
    public var jwks: JWKS { JWKS(keys: verificationKeys.map(\.publicJWK)) }

    /// Loads the stored keys, creating and storing the first one when there is none.
    public static func load(
        from repository: some SigningKeyRepository,
        cipher: FieldCipher,
        now: Date = Date(),
        retention: TimeInterval = defaultRetention
    ) async throws -> SigningKeySet {
        if let set = try await read(repository, cipher: cipher, now: now, retention: retention) {
            return set
        }
        _ = try await rotate(repository, cipher: cipher, now: now)
        guard let set = try await read(repository, cipher: cipher, now: now, retention: retention) else {
            throw SigningKeyError.noActiveKey
        }
        return set
    }

    /// Adds a new key: published at once, signing from ``publicationDelay`` on (at once when it
    /// is the first); older keys keep verifying for `retention`.
    /// - Returns: the new key.
    public static func rotate(_ repository: some SigningKeyRepository, cipher: FieldCipher, now: Date = Date()) async throws -> SigningKey {
        let key = SigningKey.generate(now: now)
        let sealed = try cipher.seal(Data(key.privateKey.pemRepresentation.utf8), context: context(key.kid))
        try await repository.activate(
            StoredSigningKey(kid: key.kid, sealedPrivateKey: sealed, createdAt: now, retiredAt: nil), now: now
        )
        return key
    }

    /// A key collection that signs with the active key and verifies with any current key, by `kid`.
    public func keyCollection() async -> JWTKeyCollection {
        let collection = JWTKeyCollection()
        for key in verificationKeys where key.kid != active.kid {
            await collection.add(ecdsa: key.privateKey.publicKey, kid: JWKIdentifier(string: key.kid))
        }
        await collection.add(ecdsa: active.privateKey, kid: JWKIdentifier(string: active.kid))
        return collection
    }

    private static func read(
        _ repository: some SigningKeyRepository, cipher: FieldCipher, now: Date, retention: TimeInterval
    ) async throws -> SigningKeySet? {
        let stored = try await repository.signingKeys()
        var keys: [SigningKey] = []
        for record in stored where record.retiredAt.map({ now.timeIntervalSince($0) < retention }) ?? true {
            let pem = try cipher.open(record.sealedPrivateKey, context: context(record.kid))
            let key = SigningKey(
                privateKey: try ES256PrivateKey(pem: pem), createdAt: record.createdAt, retiredAt: record.retiredAt
            )
            guard key.kid == record.kid else { throw SigningKeyError.kidMismatch }
            keys.append(key)
        }
        // The newest published key signs; before any is published (the first start, when two
        // instances may both create one), the oldest, which every instance agrees on.
        let newestFirst = keys.sorted { $0.createdAt > $1.createdAt }
        guard let active = newestFirst.first(where: { now.timeIntervalSince($0.createdAt) >= publicationDelay }) ?? newestFirst.last else {
            return nil
        }
        return SigningKeySet(active: active, verificationKeys: keys)
    }

    private static func context(_ kid: String) -> String { "signing-key:\(kid)" }
}

public enum SigningKeyError: Error, Sendable {
    case noActiveKey
    /// A stored key's material does not match its id: the row was altered.
    case kidMismatch
}
