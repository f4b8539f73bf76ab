// PortvaktKit's share of the BankID order (S3.2, S3.5) and of the unlock (Unlock.swift), against a live portvakt-server and its sandbox
// BankID, through the app's own AuthDriver, AuthMachine and ScreenModel. Run in release mode:
//   scripts/bench-kit.sh   (starts the server; or: portvakt-kit-benchmark URL [ORDERS])
// Two figures per order, from the moment the order's answer reaches the app:
//   deep link: until the BankID app's link is handed to the system (this device has the app);
//   QR code:   until the first frame's QR code is encoded for drawing (the app is on another device).
import Foundation
import PortvaktKit
import PortvaktProtocol
import QRCode

/// The instants one order passed, written from the driver's observer and the opener.
final class Marks: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: ContinuousClock.Instant] = [:]

    func mark(_ name: String) {
        let now = ContinuousClock.now
        lock.lock()
        if values[name] == nil { values[name] = now }
        lock.unlock()
    }

    subscript(name: String) -> ContinuousClock.Instant? {
        lock.lock()
        defer { lock.unlock() }
        return values[name]
    }
}

/// The system's URL opener: notes when the link arrives; `installed` says whether BankID is on this device.
struct BankIDApp: URLOpener {
    let installed: Bool
    let marks: Marks
    func open(_ url: URL) async -> Bool {
        marks.mark("opened")
        return installed
    }
}

/// No browser login is run here.
struct NoBrowser: WebAuthenticator {
    func authenticate(url: URL, callback: BrowserCallback) async throws -> URL { throw WebAuthenticationError.cancelled }
}

enum Failure: Error { case noFigure(String) }

/// One order from the tap to the figure; the order is cancelled afterwards (as the person would).
func measureOrder(server: URL, appInstalled: Bool, directory: URL) async throws -> (fromAnswer: Duration, fromTap: Duration) {
    let storage = FileSecureStorage(directory: directory)
    let client = PortvaktClient(configuration: PortvaktConfiguration(baseURL: server), proofKey: StoredProofKey(storage: storage))
    let marks = Marks()
    let services = AuthServices(
        client: client, storage: storage, tokens: TokenManager(storage: storage, refresher: client), queue: OfflineQueue(storage: storage),
        deviceKey: SoftwareDeviceKey(storage: storage), browser: NoBrowser(), opener: BankIDApp(installed: appInstalled, marks: marks),
        deviceName: "benchmark", platform: "linux", language: .nb,
        sleep: { _ in try await Task.sleep(for: .milliseconds(50)) }
    )
    let driver = AuthDriver(
        context: AuthContext(biometry: .notAvailable, hasSession: false, deviceKeyEnrolled: false, online: true), services: services
    ) { machine in
        guard case .bankIDOrder(let progress) = machine.screen, progress.startedAt != nil else { return }
        marks.mark("answered")
        // What the app draws: the screen model encodes the frame's QR code.
        if ScreenModel(machine, language: .nb).qrCode != nil { marks.mark("drawn") }
    }
    let tapped = ContinuousClock.now
    let order = Task { await driver.send(.methodChosen(.bankIDOrder)) }
    let wanted = appInstalled ? "opened" : "drawn"
    let deadline = tapped + .seconds(10)
    while marks[wanted] == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
    await driver.send(.cancelTapped)
    await order.value
    guard let answered = marks["answered"], let reached = marks[wanted] else {
        throw Failure.noFigure("\(wanted) not reached; screen: \(await driver.machine.screen)")
    }
    return (reached - answered, reached - tapped)
}

func milliseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}

func report(_ label: String, _ figures: [Duration], unit: String = "orders") {
    let sorted = figures.map(milliseconds).sorted()
    func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] }
    print(String(format: "%@: %d %@, p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms", label, sorted.count, unit, at(0.5), at(0.9), at(0.99), sorted.last ?? 0))
}

let arguments = CommandLine.arguments
if arguments.count >= 2, arguments[1] == "unlock" {
    try await UnlockBenchmark.run(Array(arguments.dropFirst(2)))
    exit(0)
}
guard arguments.count >= 2, let server = URL(string: arguments[1]) else {
    print("usage: portvakt-kit-benchmark BASE_URL [ORDERS]")
    exit(2)
}
let orders = arguments.count > 2 ? Int(arguments[2]) ?? 100 : 100
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-kit-benchmark-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: scratch) }

var deepLink: (answer: [Duration], tap: [Duration]) = ([], [])
var qrCode: (answer: [Duration], tap: [Duration]) = ([], [])
// One unmeasured order of each kind first: connections, the proof key and the first page of code.
for round in 0...orders {
    for installed in [true, false] {
        let directory = scratch.appendingPathComponent("\(round)-\(installed)")
        let figure = try await measureOrder(server: server, appInstalled: installed, directory: directory)
        guard round > 0 else { continue }
        if installed {
            deepLink.answer.append(figure.fromAnswer)
            deepLink.tap.append(figure.fromTap)
        } else {
            qrCode.answer.append(figure.fromAnswer)
            qrCode.tap.append(figure.fromTap)
        }
    }
}
report("deep link opened, from the order's answer (seed: <= 300 ms)", deepLink.answer)
report("deep link opened, from the tap (order start included)", deepLink.tap)
report("QR code drawn, from the order's answer (seed: <= 100 ms)", qrCode.answer)
report("QR code drawn, from the tap (order start included)", qrCode.tap)
