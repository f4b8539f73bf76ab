import Foundation
import PortvaktCore
import PortvaktStorage

/// The current signing keys, reread from the store at most once a `maxAge`, so that a rotation
/// by one instance reaches the others without a restart.
actor SigningKeyCache {
    private let store: PortvaktStore
    private let cipher: FieldCipher
    private let maxAge: TimeInterval
    private var cached: (keys: SigningKeySet, loadedAt: Date)?

    init(store: PortvaktStore, cipher: FieldCipher, maxAge: TimeInterval = 60) {
        self.store = store
        self.cipher = cipher
        self.maxAge = maxAge
    }

    func current(now: Date = Date()) async throws -> SigningKeySet {
        if let cached, now.timeIntervalSince(cached.loadedAt) < maxAge {
            return cached.keys
        }
        let keys = try await SigningKeySet.load(from: store, cipher: cipher, now: now)
        cached = (keys, now)
        return keys
    }
}
