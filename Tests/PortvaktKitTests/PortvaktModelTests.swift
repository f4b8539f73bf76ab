import Foundation
import Observation
import PortvaktKit
import PortvaktProtocol
import Synchronization
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``Portvakt`` and its `@Observable` model without a server (Observation is part of Swift on
/// Linux too): the launch from storage, the stream, and what VoiceOver is told.
@Suite("Portvakt and PortvaktModel")
struct PortvaktModelTests {
    struct NoBrowser: WebAuthenticator {
        func authenticate(url: URL, callback: BrowserCallback) async throws -> URL { throw WebAuthenticationError.failed }
    }

    struct NoApp: URLOpener {
        func open(_ url: URL) async -> Bool { false }
    }

    /// Nothing listens on port 9 of the loopback address: the phone is offline.
    static func offline(_ storage: MemorySecureStorage, firstRun: Bool = false) -> Portvakt {
        let platform = PortvaktPlatform(
            storage: storage, deviceKey: SoftwareDeviceKey(storage: storage), proofKey: StoredProofKey(storage: storage), browser: NoBrowser(),
            opener: NoApp(), biometry: { .notAvailable }, firstRun: InstallMarker(isFirstRun: { firstRun }, markInstalled: {}),
            deviceName: "test", platform: "linux"
        )
        return Portvakt(configuration: PortvaktConfiguration(baseURL: URL(string: "http://127.0.0.1:9")!), platform: platform, language: .en)
    }

    @Test("S12.1, S16: a stored session opens offline at launch, from storage alone; a later install keeps it")
    func launchFromStorage() async throws {
        let storage = MemorySecureStorage()
        try await storage.write("refresh", for: .refreshToken)
        let portvakt = Self.offline(storage)
        await portvakt.start()
        #expect(await portvakt.machine.screen == .home(.offline))
        #expect(try await storage.read(.refreshToken) != nil, "not a fresh install: nothing wiped")
    }

    @Test("S16: the observable model follows every transition and announces a changed status once")
    @MainActor
    func observableModel() async throws {
        let storage = MemorySecureStorage()
        try await storage.write("refresh", for: .refreshToken)
        let portvakt = Self.offline(storage)
        let model = PortvaktModel(portvakt)
        let changed = Mutex(0)
        withObservationTracking { _ = model.screen } onChange: { changed.withLock { $0 += 1 } }
        let following = Task { await model.follow() }
        await portvakt.start()
        for _ in 0..<200 where model.machine.screen != .home(.offline) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(model.machine.screen == .home(.offline))
        #expect(changed.withLock { $0 } >= 1, "observers were told")
        #expect(model.screen.message == UserMessage.offline.text(.en))
        #expect(model.announcement?.contains(UserMessage.offline.text(.en)) == true)
        #expect(model.biometricSettings.status == UserMessage.biometricsNotAvailable.text(.en))
        following.cancel()
    }

    @Test("S8.3: states() gives the current state at once to each listener")
    func streamStartsWithTheCurrentState() async throws {
        let portvakt = Self.offline(MemorySecureStorage(), firstRun: true)
        await portvakt.start()
        var first: AuthMachine?
        for await machine in portvakt.states() {
            first = machine
            break
        }
        #expect(first?.screen == .methodSelection(nil))
    }
}

extension PortvaktModelTests {
    @Test("S7: the session's token goes to Portvakt's origin alone")
    func authorizedRequestStaysAtPortvakt() async throws {
        let portvakt = Self.offline(MemorySecureStorage())
        for elsewhere in ["https://attacker.example/v1/me", "http://127.0.0.1:10/v1/me", "https://127.0.0.1:9/v1/me"] {
            await #expect(throws: URLError.self) { _ = try await portvakt.authorizedRequest(URLRequest(url: URL(string: elsewhere)!)) }
        }
        // Portvakt's own origin: not before a login or the biometric check in this run.
        await #expect(throws: PortvaktAccessError.locked) {
            _ = try await portvakt.authorizedRequest(URLRequest(url: URL(string: "http://127.0.0.1:9/v1/me")!))
        }
        await #expect(throws: PortvaktAccessError.locked) { _ = try await portvakt.stepUp(for: .contactsRead, password: "secret") }
        await #expect(throws: PortvaktAccessError.locked) { _ = try await portvakt.sync() }
    }

    /// Holds the BankID order's first write (the PKCE verifier) until the test lets it go.
    actor HeldStorage: SecureStorage {
        private let inner = MemorySecureStorage()
        private var held: [CheckedContinuation<Void, Never>] = []
        private var open = false
        private(set) var asked = false

        func read(_ key: SecureStorageKey) async throws -> Data? { try await inner.read(key) }
        func write(_ value: Data, for key: SecureStorageKey) async throws {
            if key == .pkceVerifier, !open {
                asked = true
                await withCheckedContinuation { held.append($0) }
            }
            try await inner.write(value, for: key)
        }
        func delete(_ key: SecureStorageKey) async throws { try await inner.delete(key) }
        func release() {
            open = true
            for waiting in held { waiting.resume() }
            held = []
        }
    }

    @Test("S3.3: start() returns at once with an order the app was ended during, shows it while collecting it, and Cancel ends it", .timeLimit(.minutes(1)))
    func startResumesAStoredOrder() async throws {
        let storage = MemorySecureStorage()
        try await storage.write("order-1", for: .bankIDSessionRef)
        try await storage.write("verifier-1", for: .pkceVerifier)
        try await storage.writeDate(Date(), for: .bankIDOrderStartedAt)
        let portvakt = Self.offline(storage)
        await portvakt.start()  // the order's polling runs beside it, for up to its 3 minutes
        for await machine in portvakt.states() {
            if case .bankIDOrder = machine.screen { break }
        }
        await portvakt.send(.cancelTapped)
        #expect(await portvakt.machine.screen == .methodSelection(nil))
        #expect(try await storage.read(.bankIDSessionRef) == nil)
    }

    @Test("S3.8: taps reach the journey in the order they were made, a Cancel too while the order's start is still under way")
    @MainActor
    func tapsArriveInOrder() async throws {
        let storage = HeldStorage()
        let platform = PortvaktPlatform(
            storage: storage, deviceKey: SoftwareDeviceKey(storage: storage), proofKey: StoredProofKey(storage: storage), browser: NoBrowser(),
            opener: NoApp(), biometry: { .notAvailable }, firstRun: InstallMarker(isFirstRun: { false }, markInstalled: {}), deviceName: "t", platform: "linux"
        )
        let portvakt = Portvakt(configuration: PortvaktConfiguration(baseURL: URL(string: "http://127.0.0.1:9")!), platform: platform, language: .en)
        await portvakt.start()
        let model = PortvaktModel(portvakt)
        let following = Task { await model.follow() }
        model.send(.methodChosen(.bankIDOrder))
        model.send(.cancelTapped)
        // The order's start is held: only a Cancel handled after the choice leads back here (one
        // handled first is ignored, and the order's screen stays).
        for _ in 0..<500 {
            if await storage.asked, await portvakt.machine.screen == .methodSelection(nil) { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await storage.asked, "the order's start began")
        #expect(await portvakt.machine.screen == .methodSelection(nil))
        await storage.release()
        try await Task.sleep(for: .milliseconds(200))
        #expect(await portvakt.machine.screen == .methodSelection(nil), "the abandoned start's failure changes nothing")
        #expect(model.machine.screen == .methodSelection(nil))
        following.cancel()
    }

    @Test("S16.1: the lock time the app chose holds after the launch")
    func lockAfterKept() async {
        let storage = MemorySecureStorage()
        let platform = PortvaktPlatform(
            storage: storage, deviceKey: SoftwareDeviceKey(storage: storage), proofKey: StoredProofKey(storage: storage), browser: NoBrowser(),
            opener: NoApp(), biometry: { .notAvailable }, firstRun: InstallMarker(isFirstRun: { false }, markInstalled: {}), deviceName: "t", platform: "linux"
        )
        let portvakt = Portvakt(configuration: PortvaktConfiguration(baseURL: URL(string: "http://127.0.0.1:9")!), platform: platform, lockAfter: 30)
        await portvakt.start()
        #expect(await portvakt.machine.context.lockAfter == 30)
    }
}
