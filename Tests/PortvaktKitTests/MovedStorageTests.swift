import Foundation
@testable import PortvaktKit
import Testing

/// An app updated from 1.0.0, whose Keychain items are under the service 1.0.0 used.
@Suite("Items moved from 1.0.0's Keychain service")
struct MovedStorageTests {
    struct Unreachable: TokenRefresher {
        func refresh(_ refreshToken: String) async throws -> TokenSet { throw TokenRefreshError.unavailable }
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

    @Test("What the app's own service holds is newer than 1.0.0's and is kept; an item unreadable now reads as unreadable, never as absent, and moves at a later use")
    func newerWinsAndUnreadableIsNotAbsent() async throws {
        let earlier = LockableStorage()
        try await earlier.write("refresh-old", for: .refreshToken)
        try await earlier.write(Data([7]), for: .deviceKeyHandle)
        try await earlier.write("device-1", for: .deviceID)
        earlier.locked.withLock { $0 = [.deviceKeyHandle, .deviceID] }
        let current = MemorySecureStorage()
        try await current.write("refresh-new", for: .refreshToken)
        let storage = MovedStorage(current: current, earlier: earlier)

        #expect(try await storage.readString(.refreshToken) == "refresh-new")
        #expect(try await earlier.inner.read(.refreshToken) == nil)
        // Read as absent, the device id would skip Face ID at launch and the key's handle would
        // delete the key: they throw, as the Keychain does for a locked phone.
        await #expect(throws: CancellationError.self) { try await storage.read(.deviceKeyHandle) }
        let launch = await AuthContext.stored(in: storage, tokens: TokenManager(storage: storage, refresher: Unreachable()),
                                              biometry: .available(.face), online: true, at: Date())
        #expect(launch.deviceKeyEnrolled, "the launch asks for the biometric check")
        #expect(try await earlier.inner.read(.deviceKeyHandle) == Data([7]), "and nothing is lost there")

        earlier.unlock()
        #expect(try await storage.read(.deviceKeyHandle) == Data([7]), "moved once the phone is unlocked")
        #expect(try await storage.readString(.deviceID) == "device-1")
        #expect(try await earlier.inner.read(.deviceKeyHandle) == nil)
    }

    @Test("An item written or deleted while its 1.0.0 copy could not be moved yet is not replaced by that copy later: a logout's deleted token and a rotated one stay as they are")
    func nothingDeletedOrReplacedComesBack() async throws {
        let earlier = LockableStorage()
        try await earlier.write("refresh-old", for: .refreshToken)
        try await earlier.write("device-1", for: .deviceID)
        earlier.locked.withLock { $0 = [.refreshToken, .deviceID] }
        let current = MemorySecureStorage()
        let storage = MovedStorage(current: current, earlier: earlier)

        try await storage.write("refresh-rotated", for: .refreshToken)
        try? await storage.delete(.deviceID)  // the earlier copy cannot be deleted yet
        earlier.unlock()
        #expect(try await storage.readString(.refreshToken) == "refresh-rotated")
        #expect(try await storage.read(.deviceID) == nil)
        #expect(try await earlier.inner.read(.refreshToken) == nil, "the old copy goes")
        #expect(try await earlier.inner.read(.deviceID) == nil)
    }

    @Test("A fresh install's wipe reaches both services and moves nothing, also when 1.0.0's copy cannot be deleted yet: the earlier installation's session never comes back")
    func freshInstallWipesBoth() async throws {
        let earlier = LockableStorage()
        try await earlier.write("refresh-old", for: .refreshToken)
        try await earlier.write("device-1", for: .deviceID)
        earlier.locked.withLock { $0 = [.refreshToken] }
        let current = MemorySecureStorage()
        try await current.write("refresh-here", for: .refreshToken)
        let storage = MovedStorage(current: current, earlier: earlier)
        await #expect(throws: CancellationError.self) { try await storage.deleteAll() }
        #expect(try await storage.read(.refreshToken) == nil, "the wipe is not undone by a move")
        #expect(try await storage.read(.deviceID) == nil)
        earlier.unlock()
        #expect(try await storage.read(.refreshToken) == nil)
        #expect(try await earlier.inner.read(.refreshToken) == nil, "deleted at the next use")
    }

    @Test("In a shared access group nothing is moved: 1.0.0's items there may be another app's")
    func sharedGroupMovesNothing() async throws {
        let earlier = MemorySecureStorage()
        try await earlier.write("other-app", for: .refreshToken)
        let current = MemorySecureStorage()
        let storage = PortvaktPlatform.storage(current, service: "no.nhf.likeperson", accessGroup: "TEAM.no.nhf.shared") { _ in earlier }
        #expect(try await storage.read(.refreshToken) == nil)
        #expect(try await earlier.readString(.refreshToken) == "other-app")
    }
}
