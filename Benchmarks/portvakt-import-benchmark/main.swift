// The member import's figures for BENCHMARKS.md (issue 45: 100,000 records, goal ≤ 60 s per
// database). Generates valid members as CSV and imports them with the code `members import` runs
// (PortvaktApplication.importMembers: read the file, plan against the organisation's records,
// write in one transaction): the initial load, the same file again (a nightly file with nothing
// new) and the file with 1 % of the members changed. SQLite in a temporary data directory, and
// PostgreSQL in a new database (dropped afterwards) when TEST_POSTGRES_URL is set
// (`eval "$(scripts/start-postgres.sh)"` starts one). Run in release mode:
//   swift run -c release portvakt-import-benchmark [members]
import Foundation
import Logging
import PortvaktServer
import PortvaktStorage
import SQLKit


/// Distinct valid personnummer (fødselsnummer 1900–2025), built once, the same on every run.
func personnummer(count: Int) -> [String] {
    var numbers: [String] = []
    var seen = Set<String>()
    var seed: UInt64 = 45
    func next(_ range: ClosedRange<Int>) -> Int {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return range.lowerBound + Int((seed >> 33) % UInt64(range.count))
    }
    while numbers.count < count {
        let year = next(1900...2025), month = next(1...12), day = next(1...28)
        let individual = year < 2000 ? next(0...499) : next(500...999)
        var digits = [day / 10, day % 10, month / 10, month % 10, (year % 100) / 10, year % 10,
                      individual / 100, (individual / 10) % 10, individual % 10]
        for weights in [[3, 7, 6, 1, 8, 9, 4, 5, 2], [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]] {
            let k = 11 - zip(digits, weights).map(*).reduce(0, +) % 11
            digits.append(k == 11 ? 0 : k)
        }
        let text = digits.map(String.init).joined()
        if !digits.contains(10), seen.insert(text).inserted { numbers.append(text) }
    }
    return numbers
}

/// The member system's export: `changed` members (every hundredth, say) with another role and given name.
func file(_ numbers: [String], changedEvery: Int? = nil) -> Data {
    var text = "external_id,member_number,given_name,family_name,email,phone,personnummer,role\r\n"
    text.reserveCapacity(numbers.count * 130)
    for (index, number) in numbers.enumerated() {
        let changed = changedEvery.map { index % $0 == 0 } ?? false
        let role = changed ? "coordinator" : (index % 1000 == 0 ? "org_admin" : (index % 50 == 0 ? "coordinator" : "peer_mentor"))
        let given = changed ? "Endret\(index)" : "Medlem\(index)"
        text += "m-\(index),\(100_000 + index),\(given),\"Nordmann, \(index % 97)\",medlem\(index)@example.org,+47\(40_000_000 + index),\(number),\(role)\r\n"
    }
    return Data(text.utf8)
}

/// When each step of an import began, as its progress tells.
final class Steps: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [String: ContinuousClock.Instant] = [:]

    func mark(_ progress: MemberImportProgress) {
        let name = switch progress {
        case .reading: "read"
        case .checking: "plan"
        case .applying: "apply"
        }
        lock.lock()
        defer { lock.unlock() }
        if times[name] == nil { times[name] = .now }
    }

    subscript(_ name: String) -> ContinuousClock.Instant? {
        lock.lock()
        defer { lock.unlock() }
        return times[name]
    }
}

func seconds(_ duration: Duration) -> String {
    String(format: "%.2f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
}

/// Imports `data` into ffo and prints where the time went.
func run(_ label: String, _ data: Data, members: Int, configuration: ServerConfiguration, logger: Logger) async throws {
    let steps = Steps()
    let start = ContinuousClock.now
    let report = try await PortvaktApplication.importMembers(
        configuration: configuration, logger: logger, organisation: "ffo", file: data, fileName: "benchmark.csv",
        apply: true, removeMissing: false, progress: { steps.mark($0) }
    )
    let end = ContinuousClock.now
    guard report.errors.isEmpty else {
        print("  \(label): \(report.errors.count) errors, first: \(report.errors[0])")
        return
    }
    let read = steps["read"] ?? start, plan = steps["plan"] ?? end, apply = steps["apply"] ?? end
    let total = end - start
    let perSecond = Double(members) / (Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18)
    print("  \(label.padding(toLength: 34, withPad: " ", startingAt: 0)) open+migrate \(seconds(read - start))  parse \(seconds(plan - read))  "
        + "plan \(seconds(apply - plan))  write \(seconds(end - apply))  total \(seconds(total))  (\(Int(perSecond)) members/s; "
        + "added \(report.added), changed \(report.changed))")
}

func benchmark(_ name: String, settings: String, environment: [String: String], numbers: [String]) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-import-benchmark-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let configuration = try ServerConfiguration.load(.development, from: environment.merging(["PORTVAKT_DATA_DIR": directory]) { $1 })
    var logger = Logger(label: "portvakt.benchmark")
    logger.logLevel = .error
    try await PortvaktApplication.createOrganisation(configuration: configuration, logger: logger, slug: "ffo", name: "Funksjonshemmedes Fellesorganisasjon")
    let initial = file(numbers), changed = file(numbers, changedEvery: 100)
    print("MemberImport on \(name) (\(settings)): \(numbers.count) members, a file of \(initial.count / 1_000_000) MB")
    try await run("initial load (all added)", initial, members: numbers.count, configuration: configuration, logger: logger)
    try await run("the same file again (no changes)", initial, members: numbers.count, configuration: configuration, logger: logger)
    try await run("1 % changed (role and given name)", changed, members: numbers.count, configuration: configuration, logger: logger)
}

/// `SHOW` of the server's durability settings, and a new database for the run.
func withPostgres(_ url: String, _ body: (_ databaseURL: String, _ settings: String) async throws -> Void) async throws {
    var logger = Logger(label: "portvakt.benchmark")
    logger.logLevel = .error
    let admin = PostgresDriver(url: try PostgresURL(url), logger: logger)
    let name = "portvakt_import_benchmark_\(ProcessInfo.processInfo.processIdentifier)"
    let settings = try await admin.whileRunning {
        try await admin.withSession { db in
            try await db.raw("CREATE DATABASE \(unsafeRaw: name)").run()
            var shown: [String] = []
            for setting in ["server_version", "fsync", "synchronous_commit", "full_page_writes", "shared_buffers"] {
                let value = try await db.raw("SHOW \(unsafeRaw: setting)").first()?.decode(column: setting, as: String.self) ?? "?"
                shown.append("\(setting) = \(value)")
            }
            return shown.joined(separator: ", ")
        }
    }
    var components = URLComponents(string: url)!
    components.path = "/" + name
    do {
        try await body(components.string!, settings)
    } catch {
        print("PostgreSQL run failed: \(error)")
    }
    let dropper = PostgresDriver(url: try PostgresURL(url), logger: logger)
    try await dropper.whileRunning {
        try await dropper.withSession { db in try await db.raw("DROP DATABASE \(unsafeRaw: name) WITH (FORCE)").run() }
    }
}

/// Everything, away from the top level's main-actor globals.
func runBenchmarks() async throws {
    let numbers = personnummer(count: CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 100_000)
    try await benchmark(
        "SQLite", settings: "WAL, synchronous = NORMAL, one connection; a temporary directory on this machine's disk",
        environment: [:], numbers: numbers
    )
    if let url = ProcessInfo.processInfo.environment["TEST_POSTGRES_URL"] {
        try await withPostgres(url) { databaseURL, settings in
            try await benchmark("PostgreSQL", settings: settings, environment: ["DATABASE_URL": databaseURL], numbers: numbers)
        }
    } else {
        print("PostgreSQL: skipped (set TEST_POSTGRES_URL, for example with eval \"$(scripts/start-postgres.sh)\")")
    }
}

try await runBenchmarks()
