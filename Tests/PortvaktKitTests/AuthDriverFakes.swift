import Foundation
@testable import PortvaktKit
import PortvaktProtocol
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The driver's `now` and `sleep`: a sleep returns at once and moves the time on by what it asked for.
final class FakeClock: Sendable {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    private struct State {
        var now = FakeClock.start
        var sleeps = 0
    }

    private let state = Mutex(State())

    var now: Date { state.withLock { $0.now } }
    var sleeps: Int { state.withLock { $0.sleeps } }
    /// Seconds since the clock started.
    var elapsed: TimeInterval { now.timeIntervalSince(Self.start) }

    func sleep(_ duration: Duration) async {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
        state.withLock {
            $0.sleeps += 1
            $0.now = $0.now.addingTimeInterval(seconds)
        }
        await Task.yield()
    }
}

/// What a fake was handed, in order.
final class Recorder<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    func append(_ item: Element) {
        items.withLock { $0.append(item) }
    }

    var all: [Element] { items.withLock { $0 } }
}

/// Secure storage that notes every write (with its value) and delete, in order.
actor JournalStorage: SecureStorage {
    private let inner: any SecureStorage
    private(set) var journal: [String] = []

    init(_ inner: any SecureStorage) {
        self.inner = inner
    }

    func read(_ key: SecureStorageKey) async throws -> Data? { try await inner.read(key) }

    func write(_ value: Data, for key: SecureStorageKey) async throws {
        try await inner.write(value, for: key)
        journal.append("\(key.rawValue) = \(String(decoding: value, as: UTF8.self))")
    }

    func delete(_ key: SecureStorageKey) async throws {
        try await inner.delete(key)
        journal.append("\(key.rawValue) deleted")
    }

    /// What happened to `key`.
    func entries(for key: SecureStorageKey) -> [String] {
        journal.filter { $0.hasPrefix(key.rawValue + " ") }
    }
}

/// The in-app browser as the script says: back at the app's callback with the `state` the app
/// stored before opening it, or an error.
struct ScriptedBrowser: WebAuthenticator {
    enum Outcome: Sendable {
        /// Comes back with the stored `state` and these fields (`code`, `message_id`).
        case answers([String: String])
        case fails(any Error)
    }

    let storage: any SecureStorage
    let outcome: Outcome

    func authenticate(url: URL, callback: BrowserCallback) async throws -> URL {
        switch outcome {
        case .fails(let error):
            throw error
        case .answers(let fields):
            let state = try await storage.readString(.pkceState) ?? ""
            var answer = URLComponents(string: "no.portvakt.app:/oauth/callback")
            answer?.queryItems = [URLQueryItem(name: "state", value: state)] + fields.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
            guard let url = answer?.url else { throw WebAuthenticationError.failed }
            return url
        }
    }
}

/// The BankID app installed on this phone: it opens, and the links it was given are kept.
struct InstalledBankIDApp: URLOpener {
    let opened = Recorder<URL>()

    func open(_ url: URL) async -> Bool {
        opened.append(url)
        return true
    }
}

/// One phone for an ``AuthDriver``: its storage, session, device key and clock, against a
/// ``FakePortvakt``; the observer keeps every transition with the clock's time.
struct TestPhone {
    struct Seen: Sendable {
        let second: TimeInterval
        let machine: AuthMachine
    }

    let server: FakePortvakt
    let storage: JournalStorage
    let tokens: TokenManager
    let queue: OfflineQueue
    let key: SoftwareDeviceKey
    let clock: FakeClock
    let seen: Recorder<Seen>
    let context: AuthContext
    let driver: AuthDriver

    init(
        storage inner: any SecureStorage = MemorySecureStorage(), biometry: BiometryAvailability = .notAvailable, session: Bool = false,
        enrolled: Bool = false, key: SoftwareDeviceKey = SoftwareDeviceKey(), opener: any URLOpener = PortvaktModelTests.NoApp(),
        browser: ScriptedBrowser.Outcome? = nil, deadlines: (challenge: TimeInterval, unlock: TimeInterval)? = nil,
        bankIDReturnURL: String? = nil
    ) {
        let server = FakePortvakt()
        server.on(FakePortvakt.Endpoint.cancelOrder, .cancelled)
        server.on(FakePortvakt.Endpoint.revoke, .status(200, Data()))
        let storage = JournalStorage(inner)
        let clock = FakeClock()
        let seen = Recorder<Seen>()
        var configuration = PortvaktConfiguration(baseURL: server.baseURL, bankIDReturnURL: bankIDReturnURL)
        if let deadlines {
            configuration.challengeDeadline = deadlines.challenge
            configuration.unlockDeadline = deadlines.unlock
        }
        let client = PortvaktClient(configuration: configuration, session: server.session)
        let tokens = TokenManager(storage: storage, refresher: client)
        let queue = OfflineQueue(storage: storage)
        let web: any WebAuthenticator
        if let browser {
            web = ScriptedBrowser(storage: storage, outcome: browser)
        } else {
            web = PortvaktModelTests.NoBrowser()
        }
        let services = AuthServices(
            client: client, storage: storage, tokens: tokens, queue: queue, deviceKey: key, browser: web, opener: opener,
            deviceName: "test phone", platform: "linux", language: .en, now: { clock.now }, sleep: { await clock.sleep($0) }
        )
        let context = AuthContext(biometry: biometry, hasSession: session, deviceKeyEnrolled: enrolled, online: true)
        driver = AuthDriver(context: context, services: services) { seen.append(Seen(second: clock.elapsed, machine: $0)) }
        self.server = server
        self.storage = storage
        self.tokens = tokens
        self.queue = queue
        self.key = key
        self.clock = clock
        self.seen = seen
        self.context = context
    }

    /// The app starts with what this phone knows.
    func launch() async {
        await driver.send(.launched(context))
    }

    var screen: AuthScreen {
        get async { await driver.machine.screen }
    }

    /// The BankID order's screens, as they were drawn.
    var orderScreens: [(second: TimeInterval, progress: BankIDOrderProgress)] {
        seen.all.compactMap { drawn -> (second: TimeInterval, progress: BankIDOrderProgress)? in
            guard case .bankIDOrder(let progress) = drawn.machine.screen else { return nil }
            return (drawn.second, progress)
        }
    }
}

/// The Keychain refusing some items for now, as it does for passcode-bound ones while the phone
/// is locked or during a background launch: reading or deleting them throws until `unlock()`.
final class LockableStorage: SecureStorage, Sendable {
    let inner: MemorySecureStorage
    let locked: Locked<Set<SecureStorageKey>>

    init(_ inner: MemorySecureStorage = MemorySecureStorage(), locked: Set<SecureStorageKey> = []) {
        self.inner = inner
        self.locked = Locked(locked)
    }

    func unlock() { locked.withLock { $0 = [] } }

    func read(_ key: SecureStorageKey) async throws -> Data? {
        try refuseIfLocked(key)
        return try await inner.read(key)
    }

    func write(_ value: Data, for key: SecureStorageKey) async throws { try await inner.write(value, for: key) }

    func delete(_ key: SecureStorageKey) async throws {
        try refuseIfLocked(key)
        try await inner.delete(key)
    }

    private func refuseIfLocked(_ key: SecureStorageKey) throws {
        if locked.withLock({ $0.contains(key) }) { throw CancellationError() }
    }
}
