import Foundation
import JWTKit
import PortvaktCore

/// The current signing keys, reread from the store at most once a `maxAge`, so that a rotation
/// by one instance reaches the others without a restart.
public actor SigningKeyCache {
    private let store: any SigningKeyRepository
    private let cipher: FieldCipher
    private let maxAge: TimeInterval
    private var cached: (keys: SigningKeySet, collection: JWTKeyCollection, loadedAt: Date)?

    public init(store: any SigningKeyRepository, cipher: FieldCipher, maxAge: TimeInterval = 60) {
        self.store = store
        self.cipher = cipher
        self.maxAge = maxAge
    }

    public func current(now: Date = Date()) async throws -> SigningKeySet {
        try await load(now: now).keys
    }

    /// The key set and a collection that signs with its active key and verifies by `kid` with any of them.
    public func collection(now: Date = Date()) async throws -> (collection: JWTKeyCollection, keys: SigningKeySet) {
        let loaded = try await load(now: now)
        return (loaded.collection, loaded.keys)
    }

    private func load(now: Date) async throws -> (keys: SigningKeySet, collection: JWTKeyCollection, loadedAt: Date) {
        if let cached, now.timeIntervalSince(cached.loadedAt) < maxAge {
            return cached
        }
        let keys = try await SigningKeySet.load(from: store, cipher: cipher, now: now)
        let loaded = (keys: keys, collection: await keys.keyCollection(), loadedAt: now)
        cached = loaded
        return loaded
    }
}
