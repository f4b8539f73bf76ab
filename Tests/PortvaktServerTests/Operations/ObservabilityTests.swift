import Foundation
import Logging
import PortvaktCore
@testable import PortvaktServer
import PortvaktStorage
import PortvaktTestSupport
import ServiceLifecycle
import SQLKit
import Synchronization
import Testing

/// What operators watch: Prometheus metrics, request ids, JSON logs, readiness.
@Suite("Operations: metrics, request ids, logs, readiness")
struct ObservabilityTests {
    static let metricsToken = "metrics-token-0123456789abcdef"

    @Test("/metrics needs the token on the main port; after a login, a refresh and a wrong password the counters have moved; no label carries a user, token or personnummer")
    func metricsMove() async throws {
        try await LiveBroker.run(.sqlite, settings: ["PORTVAKT_METRICS_TOKEN": Self.metricsToken]) { broker in
            #expect(try await broker.send("/metrics").status == 401)
            #expect(try await broker.send("/metrics", headers: [("Authorization", "Bearer wrong-token-0123456789")]).status == 401)
            let before = try await scrape(broker)

            let tokens = try await broker.tokens(provider: "vipps", user: "kari")
            let refreshToken = try #require(tokens["refresh_token"] as? String)
            #expect(try await broker.refresh(refreshToken).status == 200)
            #expect(try await broker.refresh(refreshToken).status == 200, "a repeat of a lost answer")
            let flow = try await PasswordLoginTests.form(AppLogin(), at: broker)
            _ = try await PasswordLoginTests.submit(flow, email: "nobody@example.no", password: "wrong password", at: broker)

            let after = try await scrape(broker)
            let moved = { (series: String) in (after.values[series] ?? 0) - (before.values[series] ?? 0) }
            #expect(moved(#"portvakt_logins_total{provider="vipps",outcome="success"}"#) == 1)
            #expect(moved(#"portvakt_logins_total{provider="password",outcome="failure"}"#) == 1)
            #expect(moved("portvakt_refresh_rotations_total") == 1, "the repeat is not a rotation")
            #expect(moved(#"portvakt_http_requests_total{route="/oauth/token",method="POST",status="2xx"}"#) == 3)
            #expect(moved(#"portvakt_http_requests_total{route="/oauth/password",method="POST",status="4xx"}"#) == 1)
            #expect(moved(#"portvakt_audit_events_total{action="login.succeeded"}"#) == 1)
            #expect(after.values[#"portvakt_outbox_messages{status="pending"}"#] != nil)
            for status in ["waiting", "retrying", "gave_up"] {
                #expect(after.values["portvakt_mail_outbox_messages{status=\"\(status)\"}"] != nil, "issue 46 item 6: the mail outbox's \(status)")
            }
            #expect(after.text.contains("portvakt_http_request_duration_seconds_bucket"))

            let accessToken = try #require(tokens["access_token"] as? String)
            let sub = try #require(LiveBroker.claims(accessToken)["sub"] as? String)
            #expect(!after.text.contains(sub))
            #expect(!after.text.contains(refreshToken))
            #expect(after.text.firstMatch(of: /\d{11}/) == nil, "nothing that looks like a personnummer")
        }
    }

    @Test("On PORTVAKT_METRICS_PORT /metrics needs no token, and the main port does not serve it")
    func metricsPort() async throws {
        let port = Int.random(in: 41000...49000)
        try await LiveBroker.run(.sqlite, settings: ["PORTVAKT_METRICS_PORT": "\(port)"], over: .socket) { broker in
            #expect(try await broker.send("/metrics").status == 404)
            let reply = try await broker.send("http://127.0.0.1:\(port)/metrics")
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
            #expect(reply.body.contains("# TYPE portvakt_http_requests_total counter"))
        }
    }

    @Test("Every response carries X-Request-Id; a sensible incoming one is kept, anything else replaced; the request's log lines carry it")
    func requestIDs() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let kept = try await broker.send("/health/live", headers: [("X-Request-Id", "lb-7f3a.91:2")])
            #expect(kept.headers["x-request-id"] == "lb-7f3a.91:2")
            for hostile in ["a b", String(repeating: "x", count: 129), "id;drop", "<script>", ""] {
                let replaced = try await broker.send("/health/live", headers: [("X-Request-Id", hostile)])
                let id = try #require(replaced.headers["x-request-id"])
                #expect(id != hostile && !id.isEmpty)
            }
            let error = try await broker.send("/oauth/token", method: .POST, form: [("grant_type", "password")], headers: [("X-Request-Id", "error-case-1")])
            #expect(error.status == 401)
            #expect(error.headers["x-request-id"] == "error-case-1")
            let missing = try await broker.send("/no/such/page", headers: [("X-Request-Id", "missing-1")])
            #expect(missing.status == 404)
            #expect(missing.headers["x-request-id"] == "missing-1")
            #expect(broker.logs.entries.contains { $0.contains("request_id=error-case-1") && $0.contains("route=/oauth/token") && $0.contains("status=401") })
        }
    }

    @Test("PORTVAKT_LOG_FORMAT=json writes one JSON object a line with time, level, message and fields, redacted as ever")
    func jsonLines() throws {
        let lines = LineCollector()
        var handler = RedactingLogHandler(wrapping: JSONLogHandler(label: "portvakt", write: lines.append))
        handler.logLevel = .info
        let logger = Logger(label: "portvakt") { _ in handler }
        logger.info("request", metadata: ["request_id": "r-1", "route": "/oauth/token", "status": "200", "ms": "3.2"])
        logger.warning("login for 15058612345 failed\nforged line", metadata: ["refresh_token": "secret-value"])
        let written = lines.all
        #expect(written.count == 2)
        #expect(written.allSatisfy { $0.hasSuffix("\n") && $0.dropLast().contains("\n") == false })
        let first = try #require(try JSONSerialization.jsonObject(with: Data(written[0].utf8)) as? [String: Any])
        #expect(first["message"] as? String == "request")
        #expect(first["level"] as? String == "info")
        #expect(first["request_id"] as? String == "r-1")
        #expect(first["route"] as? String == "/oauth/token")
        #expect((first["time"] as? String).flatMap { try? Date($0, strategy: .iso8601) } != nil)
        let second = try #require(try JSONSerialization.jsonObject(with: Data(written[1].utf8)) as? [String: Any])
        #expect(!(second["message"] as? String ?? "").contains("15058612345"))
        #expect(second["refresh_token"] as? String != "secret-value")
        #expect(ServerConfigurationProbe.logFormat(["PORTVAKT_LOG_FORMAT": "json"]) == .json)
        #expect(ServerConfigurationProbe.logFormat(["PORTVAKT_LOG_FORMAT": "xml"]) == nil)
    }

    @Test("Readiness: starting until migrated, ready, draining as soon as a graceful shutdown begins")
    func readiness() async throws {
        let readiness = Readiness()
        #expect(readiness.state == .starting)
        try await LiveBroker.run(.sqlite) { broker in
            let ready = try await broker.send("/health/ready")
            #expect(ready.status == 200)
        }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let group = ServiceGroup(configuration: .init(services: [DrainNotice(readiness: readiness)], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            // That it does not drain before (the instance stays ready): readinessAnswers.
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        #expect(readiness.state == .draining)
    }

    @Test("Readiness over HTTP: 503 starting while the migration waits (PostgreSQL: for another instance\'s lock), 200 once migrated with the drain notice running, 503 draining", arguments: TestDatabase.kinds)
    func readinessAnswers(kind: DatabaseKind) async throws {
        try await TestDatabase.withServerDatabase(kind) { databaseURL in
            guard let url = databaseURL else { return try await Self.readinessLife(databaseURL: nil, whileStarting: nil) }
            let other = PostgresDriver(url: try PostgresURL(url), logger: Logger(label: "test"))
            try await other.whileRunning {
                // Another instance migrating: it holds the migration lock until told to commit.
                let (held, holding) = AsyncStream<Void>.makeStream()
                let (release, releasing) = AsyncStream<Void>.makeStream()
                defer { releasing.finish() }
                let migrating = Task { try await other.withTransaction { db in
                    try await db.raw("SELECT pg_advisory_xact_lock(\(bind: PostgresDriver.migrationLockID))").run()
                    holding.yield()
                    for await _ in release { break }
                } }
                for await _ in held { break }
                try await Self.readinessLife(databaseURL: url) { broker in
                    // This instance's migration waits on the lock: seen in pg_stat_activity, no sleep.
                    #expect(try await Self.untilSomeBackendWaitsOnALock(other), "the migration never waited for the lock")
                    let starting = try await broker.send("/health/ready")
                    #expect(starting.status == 503)
                    #expect(starting.body.contains(#""status":"starting""#), "\(starting.body)")
                    #expect(try await broker.send("/health/live").status == 200, "alive while it waits")
                    releasing.yield()
                    try await migrating.value
                }
            }
        }
    }

    /// A server answering in process (its router before it listens): `whileStarting` runs while
    /// it migrates; then `/health/ready` must say 200 with DrainNotice running beside it (as
    /// `serve` runs it: it must not drain early), and 503 `draining` once it drains.
    private static func readinessLife(databaseURL: String?, whileStarting: ((LiveBroker) async throws -> Void)?) async throws {
        var settings = ["PORTVAKT_PUBLIC_URL": LiveBroker.inProcessURL, "PORTVAKT_PORT": "0", "PORTVAKT_BCRYPT_COST": "4", "PORTVAKT_LOG_LEVEL": "critical"]
        settings["DATABASE_URL"] = databaseURL
        let configuration = try TestServer.configuration(settings)
        let readiness = Readiness()
        let inProcess = InProcessHTTP()
        let (running, run) = AsyncStream<Void>.makeStream()
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let app = try await PortvaktApplication.build(
            configuration: configuration, logger: logger, readiness: readiness, inProcess: inProcess, onRunning: { _ in run.yield() }
        )
        let broker = LiveBroker(
            baseURL: configuration.publicURL, http: InProcessBrowser(server: inProcess, origin: configuration.publicURL), logs: LogSink(),
            configuration: configuration, clock: TestClock(), routes: []
        )
        let group = ServiceGroup(configuration: .init(services: [app, DrainNotice(readiness: readiness)], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                // A server that fails to start ends the wait for it below (and its error is thrown).
                defer { run.finish() }
                try await group.run()
            }
            do {
                try await whileStarting?(broker)
                var started = running.makeAsyncIterator()
                guard await started.next() != nil else {
                    Issue.record("the server stopped before it ran")
                    return try await tasks.waitForAll()
                }
                let ready = try await broker.send("/health/ready")
                #expect(ready.status == 200, "\(ready.body)")
                #expect(ready.body.contains(#""database":"reachable""#))
                // What DrainNotice does at a graceful shutdown's first moment (readiness(), above).
                readiness.drain()
                let draining = try await broker.send("/health/ready")
                #expect(draining.status == 503)
                #expect(draining.body.contains(#""status":"draining""#), "\(draining.body)")
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    /// Polls pg_stat_activity (bounded: 30 s) until a backend of this database waits on a lock.
    private static func untilSomeBackendWaitsOnALock(_ driver: PostgresDriver) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let waiting = try await driver.withSession { db in
                try await db.raw(
                    "SELECT COUNT(*) AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
                ).first()?.decode(column: "waiting", as: Int.self) ?? 0
            }
            if waiting > 0 { return true }
            await Task.yield()
        }
        return false
    }

    private struct Scrape {
        let text: String
        let values: [String: Double]
    }

    private func scrape(_ broker: LiveBroker) async throws -> Scrape {
        let reply = try await broker.send("/metrics", headers: [("Authorization", "Bearer \(Self.metricsToken)")])
        #expect(reply.status == 200)
        var values: [String: Double] = [:]
        for line in reply.body.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            values[String(line[..<space])] = value
        }
        return Scrape(text: reply.body, values: values)
    }
}

/// Collects what a log handler writes.
final class LineCollector: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func append(_ line: String) { lines.withLock { $0.append(line) } }
}

enum ServerConfigurationProbe {
    static func logFormat(_ settings: [String: String]) -> ServerConfiguration.LogFormat? {
        try? ServerConfiguration.load(.development, from: settings).logFormat
    }
}

@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    @Test("/openapi.json is OpenAPI 3.1 and lists every JSON endpoint the router serves (the route list comes from the router)")
    func everyJSONRouteIsDescribed() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let reply = try await broker.send("/openapi.json")
            #expect(reply.status == 200)
            #expect(reply.json["openapi"] as? String == "3.1.0")
            let paths = try #require(reply.json["paths"] as? [String: [String: Any]])
            // Browser pages, the sandbox and operator endpoints are not part of the JSON API.
            let pages = ["/", "/oauth/authorize", "/oauth/password", "/oauth/passkey", "/assets/passkey.js", "/oauth/end-session", "/oauth/members-only", "/oauth/consent", "/oauth/callback/vipps", "/oauth/callback/bankid",
                         "/oauth/bankid/other-device", "/oauth/bankid/other-device.js", "/openapi.json", "/metrics", "/language",
                         "/assets/portvakt.css", "/brands/{slug}/logo.svg", "/brands/{slug}/brand.css"]
            for route in broker.routes {
                let parts = route.split(separator: " ", maxSplits: 1)
                let method = parts[0].lowercased()
                let path = String(parts[1]).replacing(/:(\w+)/) { "{\($0.1)}" }
                guard !path.hasPrefix("/sandbox"), !path.hasPrefix("/oauth/claim/"), !path.hasPrefix("/portal/"), !path.hasPrefix("/account"), !path.hasPrefix("/admin"), !pages.contains(path) else { continue }
                #expect(paths[path]?[method] != nil, "\(route) is not in /openapi.json")
            }
        }
    }
}
