// The biometric unlock from the tap to home (S5.2, S29.3), through PortvaktKit's AuthDriver
// against a live portvakt-server, on a good network and on one that loses a request:
//   scripts/bench-unlock.sh   (starts the server, logs the CLI in with biometrics; or:
//   portvakt-kit-benchmark unlock BASE_URL CLI_HOME [ROUNDS])
import Foundation
import PortvaktKit
import PortvaktProtocol
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which request the phone's network loses now: one whose path ends so waits far past every
/// deadline before it goes out; every other request goes to the server at once, over real HTTP.
final class LostRequests: @unchecked Sendable {
    static let shared = LostRequests()
    private let lock = NSLock()
    private var suffix: String?

    var pathSuffix: String? {
        get { lock.withLock { suffix } }
        set { lock.withLock { suffix = newValue } }
    }
}

/// The phone's network as `URLSession` sees it (a `URLProtocol`): real HTTP, except the request
/// ``LostRequests`` names, which stalls until the app gives up on it.
final class WeakNetwork: URLProtocol {
    static let network = URLSession(configuration: .ephemeral)
    private let lock = NSLock()
    private var sending: Task<Void, Never>?
    private var stopped = false

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        var outgoing = request
        if outgoing.httpBody == nil, let stream = outgoing.httpBodyStream { outgoing.httpBody = Self.read(stream) }
        let lost = LostRequests.shared.pathSuffix.map { outgoing.url?.path.hasSuffix($0) == true } ?? false
        // The loading system takes answers from any thread.
        let loading = Carried(value: self)
        let sent = outgoing
        let task = Task {
            let this = loading.value
            do {
                if lost { try await Task.sleep(for: .seconds(60)) }
                let (data, response) = try await WeakNetwork.network.data(for: sent)
                this.deliver { client in
                    client.urlProtocol(this, didReceive: response, cacheStoragePolicy: .notAllowed)
                    client.urlProtocol(this, didLoad: data)
                    client.urlProtocolDidFinishLoading(this)
                }
            } catch {
                this.deliver { client in client.urlProtocol(this, didFailWithError: error) }
            }
        }
        lock.withLock { sending = task }
    }

    override func stopLoading() {
        lock.withLock {
            stopped = true
            sending?.cancel()
        }
    }

    /// Nothing reaches a request the loading system gave up on.
    private func deliver(_ answer: (any URLProtocolClient) -> Void) {
        guard let client, !lock.withLock({ stopped }) else { return }
        answer(client)
    }

    private static func read(_ stream: InputStream) -> Data {
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }
}

struct Carried<Value>: @unchecked Sendable {
    let value: Value
}

/// The device key, noting when its biometric check has passed and it has signed.
struct NotedKey: DeviceKey {
    let inner: SoftwareDeviceKey
    let marks: Marks

    func create(prompt: BiometricPrompt) async throws(BiometricFailure) -> DevicePublicKey { try await inner.create(prompt: prompt) }
    func sign(_ data: Data, prompt: BiometricPrompt) async throws(BiometricFailure) -> Data {
        let signature = try await inner.sign(data, prompt: prompt)
        marks.mark("checked")
        return signature
    }
    func delete() async { await inner.delete() }
    func exists() async -> Bool { await inner.exists() }
}

enum UnlockBenchmark {
    struct Figure {
        let fromTap: Duration
        let fromCheck: Duration
        let offline: Bool
    }

    /// One launch of the app with the CLI's enrolled device, from the tap (the launch asks for
    /// the check at once) to home.
    static func unlockOnce(server: URL, home: URL) async throws -> Figure {
        let storage = FileSecureStorage(directory: home)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [WeakNetwork.self]
        let client = PortvaktClient(
            configuration: PortvaktConfiguration(baseURL: server, clientID: "portvakt-cli", redirectURI: "http://127.0.0.1:1/callback"),
            session: URLSession(configuration: configuration), proofKey: SoftwareProofKey(storage: storage)
        )
        let marks = Marks()
        let tokens = TokenManager(storage: storage, refresher: client)
        let services = AuthServices(
            client: client, storage: storage, tokens: tokens, queue: OfflineQueue(storage: storage),
            deviceKey: NotedKey(inner: SoftwareDeviceKey(storage: storage), marks: marks), browser: NoBrowser(),
            opener: BankIDApp(installed: false, marks: marks), deviceName: "benchmark", platform: "linux", language: .nb
        )
        let context = await AuthContext.stored(in: storage, tokens: tokens, biometry: .available(.fingerprint), online: true, at: Date())
        guard context.deviceKeyEnrolled, context.hasSession else { throw Failure.noFigure("the CLI's home has no enrolled device") }
        let driver = AuthDriver(context: context, services: services) { machine in
            if case .home = machine.screen { marks.mark("home") }
        }
        let tapped = ContinuousClock.now
        await driver.send(.launched(context))
        guard case .home(let notice) = await driver.machine.screen, let home = marks["home"], let checked = marks["checked"] else {
            throw Failure.noFigure("home not reached; screen: \(await driver.machine.screen)")
        }
        return Figure(fromTap: home - tapped, fromCheck: home - checked, offline: notice == .offline)
    }

    static func run(_ arguments: [String]) async throws {
        guard arguments.count >= 2, let server = URL(string: arguments[0]) else {
            print("usage: portvakt-kit-benchmark unlock BASE_URL CLI_HOME [ROUNDS]")
            exit(2)
        }
        let home = URL(fileURLWithPath: arguments[1])
        let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 50 : 50
        let deadlines = PortvaktConfiguration(baseURL: server)
        print("deadlines: challenge \(deadlines.challengeDeadline) s, session after the check \(deadlines.unlockDeadline) s")
        // One unmeasured unlock first: connections, the proof key and the first page of code.
        _ = try await unlockOnce(server: server, home: home)
        for (label, lost, count) in [("good network", nil, rounds), ("challenge lost", "/challenges", max(3, rounds / 10)), ("session lost after the check", "/oauth/token", max(3, rounds / 10))] {
            LostRequests.shared.pathSuffix = lost
            var figures: [Figure] = []
            for _ in 0..<count { figures.append(try await unlockOnce(server: server, home: home)) }
            let offline = figures.filter(\.offline).count
            report("\(label), tap to home (\(offline) of \(count) offline)", figures.map(\.fromTap), unit: "unlocks")
            report("\(label), check to home (seed: <= 2 s)", figures.map(\.fromCheck), unit: "unlocks")
        }
    }
}
