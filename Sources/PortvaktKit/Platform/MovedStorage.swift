import Foundation

/// A ``SecureStorage`` whose items moved: 1.0.0 kept every app's Keychain items under the service
/// "no.portvakt.sdk", later versions under the app's bundle identifier. Before its first use the
/// items still at the earlier place are moved (written here, then deleted there), so an app's
/// update keeps its members' sessions and device keys. An item that cannot be read now (a
/// locked phone) is moved at a later use; deletes reach both places, so nothing comes back.
public actor MovedStorage: SecureStorage {
    private let current: any SecureStorage
    private let earlier: any SecureStorage
    private var pending = Set(SecureStorageKey.all)
    /// The move under way: every call waits for it, so none reads or writes half-way through.
    private var moving: Task<Void, Never>?

    public init(current: any SecureStorage, earlier: any SecureStorage) {
        self.current = current
        self.earlier = earlier
    }

    public func read(_ key: SecureStorageKey) async throws -> Data? {
        await moved()
        return try await current.read(key)
    }

    public func write(_ value: Data, for key: SecureStorageKey) async throws {
        await moved()
        try await current.write(value, for: key)
    }

    public func delete(_ key: SecureStorageKey) async throws {
        await moved()
        try await current.delete(key)
        try await earlier.delete(key)
    }

    public func deleteAll() async throws {
        await moved()
        try await current.deleteAll()
        try await earlier.deleteAll()
    }

    private func moved() async {
        guard !pending.isEmpty else { return }
        if moving == nil {
            let keys = pending
            moving = Task { [current, earlier] in
                var moved: Set<SecureStorageKey> = []
                for key in keys {
                    do {
                        // What this place has already is newer than what the earlier one kept.
                        if try await current.read(key) == nil, let value = try await earlier.read(key) {
                            try await current.write(value, for: key)
                        }
                        try await earlier.delete(key)
                        moved.insert(key)
                    } catch {
                        continue  // tried again at the next use
                    }
                }
                self.finished(moving: moved)
            }
        }
        await moving?.value
    }

    private func finished(moving moved: Set<SecureStorageKey>) {
        pending.subtract(moved)
        moving = nil
    }
}
