import Foundation
import JWTKit

/// The keys Portvakt signs and verifies with: per algorithm one active key, and retired keys kept
/// for `retention` after their retirement so that tokens they signed still verify.
public struct SigningKeySet: Sendable {
    /// Longer than any token signed with a key lives, so rotation never breaks a valid token.
    public static let defaultRetention: TimeInterval = 24 * 3600

    /// A new key is published at once (in the JWKS, and verifying) but signs only this long after
    /// its creation: every instance rereads the keys at least once a minute, so by the time a
    /// token carries the new key's `kid`, every instance accepts it.
    public static let publicationDelay: TimeInterval = 90

    /// The ES256 key that signs access tokens (and ES256 ID tokens).
    public var active: SigningKey { signing[.es256]! }
    /// The key that signs with `algorithm`.
    public func active(_ algorithm: SigningKey.Algorithm) -> SigningKey { signing[algorithm]! }
    private let signing: [SigningKey.Algorithm: SigningKey]
    /// The active keys and the retired keys still inside their retention.
    public let verificationKeys: [SigningKey]

    /// The public keys, for `/.well-known/jwks.json`.
    public var jwks: JWKS { JWKS(keys: verificationKeys.map(\.publicJWK)) }

    /// Loads the stored keys, creating and storing the first of each algorithm when there is none
    /// (a database from before RS256 gets its RS256 key on the first start).
    public static func load(
        from repository: some SigningKeyRepository,
        cipher: FieldCipher,
        now: Date = Date(),
        retention: TimeInterval = defaultRetention
    ) async throws -> SigningKeySet {
        let keys = try await read(repository, cipher: cipher, now: now, retention: retention)
        let missing = SigningKey.Algorithm.allCases.filter { algorithm in !keys.contains { $0.algorithm == algorithm } }
        if missing.isEmpty, let set = SigningKeySet(keys, now: now) { return set }
        var creation: (any Error)?
        do {
            try await rotate(repository, cipher: cipher, algorithms: missing, now: now)
        } catch {
            // Another instance may have created it first (the store keeps one unretired key of
            // an algorithm that has a constraint for it): the read below finds theirs.
            creation = error
        }
        guard let set = SigningKeySet(try await read(repository, cipher: cipher, now: now, retention: retention), now: now) else {
            throw creation ?? SigningKeyError.noActiveKey
        }
        return set
    }

    /// Adds a new key of each of `algorithms`: published at once, signing from
    /// ``publicationDelay`` on (at once when it is the first); older keys keep verifying for `retention`.
    /// - Returns: the new keys.
    @discardableResult
    public static func rotate(
        _ repository: some SigningKeyRepository, cipher: FieldCipher, algorithms: [SigningKey.Algorithm] = SigningKey.Algorithm.allCases, now: Date = Date()
    ) async throws -> [SigningKey] {
        let keys = try algorithms.map { try SigningKey.generate($0, now: now) }
        let stored = try keys.map { key in
            StoredSigningKey(
                kid: key.kid, algorithm: key.algorithm,
                sealedPrivateKey: try cipher.seal(Data(key.pemRepresentation.utf8), context: sealingContext(kid: key.kid)), createdAt: now, retiredAt: nil
            )
        }
        try await repository.activate(stored, now: now)
        return keys
    }

    /// A key collection that signs with the active keys and verifies with any current key, by `kid`.
    public func keyCollection() async -> JWTKeyCollection {
        let collection = JWTKeyCollection()
        let signingKids = Set(signing.values.map(\.kid))
        for key in verificationKeys {
            await key.add(to: collection, signing: signingKids.contains(key.kid))
        }
        return collection
    }

    /// The newest published key of each algorithm signs; before any is published (the first
    /// start, when two instances may both create one), the oldest, which every instance agrees on.
    private init?(_ keys: [SigningKey], now: Date) {
        var signing: [SigningKey.Algorithm: SigningKey] = [:]
        for algorithm in SigningKey.Algorithm.allCases {
            let newestFirst = keys.filter { $0.algorithm == algorithm }.sorted { $0.createdAt > $1.createdAt }
            guard let active = newestFirst.first(where: { now.timeIntervalSince($0.createdAt) >= Self.publicationDelay }) ?? newestFirst.last else {
                return nil
            }
            signing[algorithm] = active
        }
        self.signing = signing
        self.verificationKeys = keys
    }

    private static func read(
        _ repository: some SigningKeyRepository, cipher: FieldCipher, now: Date, retention: TimeInterval
    ) async throws -> [SigningKey] {
        var keys: [SigningKey] = []
        for record in try await repository.signingKeys() where record.retiredAt.map({ now.timeIntervalSince($0) < retention }) ?? true {
            let pem = String(decoding: try cipher.open(record.sealedPrivateKey, context: sealingContext(kid: record.kid)), as: UTF8.self)
            let key = try SigningKey(algorithm: record.algorithm, pem: pem, createdAt: record.createdAt, retiredAt: record.retiredAt)
            guard key.kid == record.kid else { throw SigningKeyError.kidMismatch }
            keys.append(key)
        }
        return keys
    }

    /// The context (associated data) a signing key's private half is sealed with.
    public static func sealingContext(kid: String) -> String { "signing-key:\(kid)" }
}

public enum SigningKeyError: Error, Sendable {
    case noActiveKey
    /// A stored key's material does not match its id: the row was altered.
    case kidMismatch
}
