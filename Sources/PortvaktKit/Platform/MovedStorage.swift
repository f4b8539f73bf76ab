import Foundation

/// A ``SecureStorage`` whose items moved: 1.0.0 kept every app's Keychain items under the service
/// "no.portvakt.sdk", later versions under the app's bundle identifier. Before its first use the
/// items still at the earlier place are moved (written here, then deleted there), so an app's
/// update keeps its members' sessions and device keys.
///
/// An item that cannot be read at the earlier place now (a locked phone) is moved at a later use;
/// until then reading it throws, as the Keychain does, never "not there" (which would skip Face ID
/// or delete the key). What is written or deleted here wins over the earlier place, whose copy is
/// then only deleted, so nothing deleted or replaced comes back. One call at a time: a move never
/// runs beside a read or a write.
public actor MovedStorage: SecureStorage {
    private let current: any SecureStorage
    private let earlier: any SecureStorage
    /// Still to move, with why the last try could not (nil: not tried yet).
    private var pending: [SecureStorageKey: (any Error)?] = Dictionary(uniqueKeysWithValues: SecureStorageKey.all.map { ($0, nil) })
    /// Written or deleted here while still at the earlier place: that copy is only deleted.
    private var superseded: Set<SecureStorageKey> = []
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    public init(current: any SecureStorage, earlier: any SecureStorage) {
        self.current = current
        self.earlier = earlier
    }

    public func read(_ key: SecureStorageKey) async throws -> Data? {
        await enter()
        defer { leave() }
        await moveWhatIsLeft()
        if let value = try await current.read(key) { return value }
        if let failure = pending[key] ?? nil { throw failure }
        return nil
    }

    public func write(_ value: Data, for key: SecureStorageKey) async throws {
        await enter()
        defer { leave() }
        await moveWhatIsLeft()
        let unmoved = pending.removeValue(forKey: key)
        if unmoved != nil { superseded.insert(key) }
        do {
            try await current.write(value, for: key)
        } catch {
            // Nothing replaced it: 1.0.0's copy still counts.
            if let unmoved {
                pending[key] = unmoved
                superseded.remove(key)
            }
            throw error
        }
    }

    public func delete(_ key: SecureStorageKey) async throws {
        await enter()
        defer { leave() }
        await moveWhatIsLeft()
        if pending.removeValue(forKey: key) != nil { superseded.insert(key) }
        try await current.delete(key)
        // The earlier copy, if it cannot go now, goes at a later use.
        if (try? await earlier.delete(key)) != nil { superseded.remove(key) }
    }

    /// A fresh install's wipe: both places, nothing moved first (or later).
    public func deleteAll() async throws {
        await enter()
        defer { leave() }
        pending = [:]
        superseded = Set(SecureStorageKey.all)
        try await current.deleteAll()
        try await earlier.deleteAll()
        superseded = []
    }

    private func moveWhatIsLeft() async {
        for key in superseded {
            if (try? await earlier.delete(key)) != nil { superseded.remove(key) }
        }
        for key in pending.keys {
            do {
                // What this place has already is newer than what the earlier one kept.
                if try await current.read(key) == nil, let value = try await earlier.read(key) {
                    try await current.write(value, for: key)
                }
                try await earlier.delete(key)
                pending.removeValue(forKey: key)
            } catch {
                pending[key] = error  // tried again at the next use
            }
        }
    }

    private func enter() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Hands the turn to the next call, which finds `busy` still set for it.
    private func leave() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}
