import Foundation

/// A ``SecureStorage`` whose items moved: 1.0.0 kept every app's Keychain items under the service
/// "no.portvakt.sdk", later versions under the app's bundle identifier. Before its first use the
/// items still at the earlier place are moved (written here, then deleted there), so an app's
/// update keeps its members' sessions and device keys.
///
/// An item that cannot be read at the earlier place now (a locked phone) is moved at a later use;
/// until then reading it throws, as the Keychain does, never "not there" (which would skip Face ID
/// or delete the key). What is written or deleted here wins over the earlier place, whose copy is
/// then only deleted, so nothing deleted or replaced comes back.
public actor MovedStorage: SecureStorage {
    private let current: any SecureStorage
    private let earlier: any SecureStorage
    /// Still to move, with why the last try could not (nil: not tried yet).
    private var pending: [SecureStorageKey: (any Error)?] = Dictionary(uniqueKeysWithValues: SecureStorageKey.all.map { ($0, nil) })
    /// Written or deleted here while still at the earlier place: that copy is only deleted.
    private var superseded: Set<SecureStorageKey> = []
    /// The move under way: every call waits for it, so none reads or writes half-way through.
    private var moving: Task<Void, Never>?

    public init(current: any SecureStorage, earlier: any SecureStorage) {
        self.current = current
        self.earlier = earlier
    }

    public func read(_ key: SecureStorageKey) async throws -> Data? {
        await moved()
        if let value = try await current.read(key) { return value }
        if let unmoved = pending[key], let failure = unmoved { throw failure }
        return nil
    }

    public func write(_ value: Data, for key: SecureStorageKey) async throws {
        await moved()
        supersede(key)
        try await current.write(value, for: key)
    }

    public func delete(_ key: SecureStorageKey) async throws {
        await moved()
        supersede(key)
        try await current.delete(key)
        try await earlier.delete(key)
        superseded.remove(key)
    }

    /// A fresh install's wipe: both places, nothing moved first.
    public func deleteAll() async throws {
        await moving?.value
        try await current.deleteAll()
        try await earlier.deleteAll()
        pending = [:]
        superseded = []
    }

    private func supersede(_ key: SecureStorageKey) {
        if pending.removeValue(forKey: key) != nil { superseded.insert(key) }
    }

    private func moved() async {
        guard !pending.isEmpty || !superseded.isEmpty else { return }
        if moving == nil {
            moving = Task { await self.moveOnce() }
        }
        await moving?.value
    }

    private func moveOnce() async {
        for key in superseded {
            if (try? await earlier.delete(key)) != nil { superseded.remove(key) }
        }
        for key in pending.keys {
            do {
                // What this place has already is newer than what the earlier one kept.
                if try await current.read(key) == nil, let value = try await earlier.read(key), pending[key] != nil {
                    try await current.write(value, for: key)
                }
                try await earlier.delete(key)
                pending.removeValue(forKey: key)
            } catch {
                if pending[key] != nil { pending[key] = error }  // tried again at the next use
            }
        }
        moving = nil
    }
}
