import Foundation

/// A real SMTP server, aiosmtpd, run by `scripts/smtp-test-server.py` for one test on a free
/// port of 127.0.0.1; what it receives lands as files in a directory of its own.
struct SMTPTestServer {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/smtp-test-server.py").path

    /// Whether `python3 -c "import aiosmtpd"` works.
    static let hasAiosmtpd: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import aiosmtpd"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// Without aiosmtpd the tests are skipped, except on CI, where they run and fail.
    static var shouldRun: Bool { hasAiosmtpd || ProcessInfo.processInfo.environment["CI"] == "true" }

    let port: Int
    let maildir: URL

    /// What the server made of message `number` (from 1): its JSON record and the raw message.
    struct Received {
        let record: [String: Any]
        let raw: Data

        var subject: String? { record["subject"] as? String }
        /// The decoded body with LF line ends.
        var body: String? { (record["body"] as? String)?.replacingOccurrences(of: "\r\n", with: "\n") }
        var headers: [String: String] { record["headers"] as? [String: String] ?? [:] }
    }

    /// Starts the server, runs `body`, stops the server.
    /// - Parameters:
    ///   - starttls: offer (and require) STARTTLS with a certificate for 127.0.0.1 in `maildir/cert.pem`.
    ///   - auth: `user:password` that AUTH PLAIN must give.
    static func run(starttls: Bool = false, auth: String? = nil, _ body: (SMTPTestServer) async throws -> Void) async throws {
        guard hasAiosmtpd else { throw Missing() }
        let maildir = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: maildir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: maildir) }
        let log = maildir.appendingPathComponent("server.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "0", maildir.path] + (starttls ? ["--starttls"] : []) + (auth.map { ["--auth", $0] } ?? [])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        defer {
            // SIGKILL: a child of Foundation's Process may have SIGTERM blocked, and then
            // waitUntilExit would wait for ever.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        var port: Int?
        for _ in 0..<400 where port == nil {
            guard process.isRunning else { break }
            port = (try? String(contentsOf: maildir.appendingPathComponent("ready"), encoding: .utf8)).flatMap { Int($0) }
            if port == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        guard let port else {
            throw StartFailed(log: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
        }
        try await body(SMTPTestServer(port: port, maildir: maildir))
    }

    /// Waits up to five seconds for message `number`.
    func message(_ number: Int) async throws -> Received {
        let json = maildir.appendingPathComponent("\(number).json")
        for _ in 0..<100 {
            if let data = FileManager.default.contents(atPath: json.path) {
                let record = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
                let raw = try Data(contentsOf: maildir.appendingPathComponent("\(number).eml"))
                return Received(record: record, raw: raw)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw NotReceived(number: number)
    }

    /// How many messages arrived.
    var count: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: maildir.path)) ?? []).filter { $0.hasSuffix(".json") }.count
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String { "aiosmtpd is not installed (python3 -m pip install -r scripts/smtp/requirements.txt; scripts/test.sh does it)" }
    }

    struct StartFailed: Error, CustomStringConvertible {
        let log: String
        var description: String { "scripts/smtp-test-server.py did not start: \(log)" }
    }

    struct NotReceived: Error, CustomStringConvertible {
        let number: Int
        var description: String { "the SMTP server received no message \(number)" }
    }
}
