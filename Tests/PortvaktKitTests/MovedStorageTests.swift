import Foundation
@testable import PortvaktKit
import Testing

/// An app updated from 1.0.0, whose Keychain items are under the service 1.0.0 used.
@Suite("Items moved from 1.0.0's Keychain service")
struct MovedStorageTests {
    /// Storage that cannot read some items for now, as the Keychain while the phone is locked.
    final class Unreadable: SecureStorage, @unchecked Sendable {
        let inner = MemorySecureStorage()
        let locked = Locked<Set<SecureStorageKey>>([])
        func read(_ key: SecureStorageKey) async throws -> Data? {
            if locked.withLock({ $0.contains(key) }) { throw CancellationError() }
            return try await inner.read(key)
        }
        func write(_ value: Data, for key: SecureStorageKey) async throws { try await inner.write(value, for: key) }
        func delete(_ key: SecureStorageKey) async throws { try await inner.delete(key) }
    }

    @Test("S25.1: after an update from 1.0.0 the session and the device key are still there, kept under the app's own service and gone from the old one")
    func updateKeepsTheMemberSignedIn() async throws {
        let earlier = MemorySecureStorage()
        try await earlier.write("refresh-0", for: .refreshToken)
        try await earlier.write("device-1", for: .deviceID)
        try await earlier.write(Data([1, 2, 3]), for: .deviceKeyHandle)
        let current = MemorySecureStorage()
        let storage = PortvaktPlatform.storage(current, service: "no.nhf.likeperson") { _ in earlier }

        #expect(try await storage.readString(.refreshToken) == "refresh-0")
        #expect(try await current.readString(.deviceID) == "device-1")
        #expect(try await current.read(.deviceKeyHandle) == Data([1, 2, 3]))
        for key in SecureStorageKey.all { #expect(try await earlier.read(key) == nil, "\(key.rawValue) left at the old service") }

        let unchanged = MemorySecureStorage()
        let own = PortvaktPlatform.storage(unchanged, service: PortvaktPlatform.earlierKeychainService) { _ in earlier }
        try await own.write("refresh-9", for: .refreshToken)
        #expect(try await unchanged.readString(.refreshToken) == "refresh-9", "an app still on 1.0.0's service uses it as it is")
    }

    @Test("What the app's own service holds is newer than 1.0.0's and is kept; an item unreadable now moves at a later use; a deleted item does not come back")
    func newerWinsAndLaterUseMovesTheRest() async throws {
        let earlier = Unreadable()
        try await earlier.write("refresh-old", for: .refreshToken)
        try await earlier.write(Data([7]), for: .deviceKeyHandle)
        try await earlier.write("device-1", for: .deviceID)
        earlier.locked.withLock { $0 = [.deviceKeyHandle] }
        let current = MemorySecureStorage()
        try await current.write("refresh-new", for: .refreshToken)
        let storage = MovedStorage(current: current, earlier: earlier)

        #expect(try await storage.readString(.refreshToken) == "refresh-new")
        #expect(try await earlier.inner.read(.refreshToken) == nil)
        #expect(try await storage.read(.deviceKeyHandle) == nil, "not readable at the old place yet")
        #expect(try await earlier.inner.read(.deviceKeyHandle) == Data([7]), "and not lost there")

        earlier.locked.withLock { $0 = [] }
        #expect(try await storage.read(.deviceKeyHandle) == Data([7]), "moved once the phone is unlocked")
        #expect(try await earlier.inner.read(.deviceKeyHandle) == nil)

        try await storage.delete(.deviceID)
        #expect(try await storage.read(.deviceID) == nil)
        #expect(try await earlier.inner.read(.deviceID) == nil)
    }
}
