import Foundation
import PortvaktCore
@testable import PortvaktServer
@testable import PortvaktStorage
import Testing

/// Issue 60: a `DATABASE_URL` read as libpq reads it, and settings that are never silently
/// ignored. The connections themselves are tried against a real `ssl=on` PostgreSQL in
/// scripts/postgres-tls-test.sh.
@Suite("Production settings")
struct ProductionSettingsTests {
    @Test("A socket folder in host= (or percent-encoded as the host) is the Unix-domain socket in it, on this machine")
    func socket() throws {
        for text in ["postgres:///portvakt?host=/run/postgresql&user=portvakt", "postgresql://portvakt@%2Frun%2Fpostgresql:5433/portvakt"] {
            let url = try PostgresURL(text)
            #expect(url.isSocket, "\(text)")
            #expect(url.host == "/run/postgresql")
            #expect(url.database == "portvakt" && url.username == "portvakt")
        }
        // Development accepts a socket: it is this machine's database.
        let configuration = try ServerConfiguration.load(.development, from: ["DATABASE_URL": "postgres:///portvakt?host=/run/postgresql&user=portvakt"])
        guard case .postgres(let url) = configuration.database else { Issue.record("not PostgreSQL"); return }
        #expect(url.port == 5432)
    }

    @Test("libpq's parameters mean what they mean to libpq; any other is refused by name", arguments: [
        ("postgres://u:secretpw@h/db?sslmode=require&keepalives=1", "keepalives"),
        ("postgres://u:secretpw@h/db?sslmode=allow", "sslmode=allow"),
        ("postgres://u:secretpw@h/db?sslmode=prefer&sslrootcert=/etc/ssl/ca.pem", "sslrootcert"),
        ("postgres://u:secretpw@h/db?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem", "/nonexistent/ca.pem"),
        ("postgres://u:secretpw@h/db?sslcert=/etc/c.pem", "sslcert and sslkey"),
        ("postgres://u:secretpw@h1,h2/db", "several hosts"),
        ("postgres://u:secretpw@h/db?connect_timeout=0", "connect_timeout"),
        ("postgres://u:secretpw@h/db?sslmode=require&sslmode=disable", "twice"),
        ("postgres://u:secretpw@h/db?sslmode=verify-ca", "sslmode=verify-ca without sslrootcert"),
        ("postgres://u:secretpw@h/db?sslmode=require&sslrootcert=system", "sslrootcert=system"),
        ("postgres://u:secretpw@h/db?sslmode=require&pass=word&rest", "has a parameter,"),
    ])
    func refusedURL(text: String, named: String) {
        do {
            _ = try PostgresURL(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.contains(named), "\(error.description)")
            #expect(!error.description.contains("secretpw"))
        }
    }

    @Test("sslmode: disable, prefer and require encrypt without checking (require checks the chain with sslrootcert), verify-ca the chain, verify-full the name too")
    func modes() throws {
        for mode in PostgresURL.TLSMode.allCases where mode != .verifyCA {
            let url = try PostgresURL("postgres://u@db.internal/portvakt?sslmode=\(mode.rawValue)")
            #expect(url.tls == mode)
            #expect(url.rootCertificateFile == nil)
        }
        #expect(try PostgresURL("postgres://u@db.internal/portvakt").tls == .prefer, "libpq's default")
        #expect(try PostgresURL("postgres://u@db.internal/portvakt?sslmode=verify-full&sslrootcert=system").rootCertificateFile == nil)
        #expect(try PostgresURL("postgres://u:p%2541ss@db.internal/portvakt").password == "p%41ss", "decoded once, as libpq does")
        #expect(try PostgresURL("postgres://u@db.internal/portvakt?connect_timeout=12").connectTimeout == .seconds(12))
    }

    @Test("The pool size is a setting of its own, checked")
    func poolSize() throws {
        let configuration = try ServerConfiguration.load(.development, from: [
            "DATABASE_URL": "postgres://u@127.0.0.1/portvakt", "PORTVAKT_DATABASE_POOL_SIZE": "40",
        ])
        guard case .postgres(let url) = configuration.database else { Issue.record("not PostgreSQL"); return }
        #expect(url.poolSize == 40)
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.load(.development, from: ["DATABASE_URL": "postgres://u@127.0.0.1/portvakt", "PORTVAKT_DATABASE_POOL_SIZE": "0"])
        }
    }

    @Test("A misspelt PORTVAKT_ or OTEL_ setting is refused in production, naming what it most likely meant")
    func misspeltInProduction() {
        var settings = ConfigurationTests.productionSettings
        settings["PORTVAKT_SMTP_ULR"] = "smtp://mail.example.no"
        settings["OTEL_TRACE_EXPORTER"] = "otlp"
        do {
            _ = try ServerConfiguration.load(.production, from: settings)
            Issue.record("a misspelt setting was accepted in production")
        } catch {
            #expect(error.description.contains("PORTVAKT_SMTP_ULR is not a setting Portvakt reads (did you mean PORTVAKT_SMTP_URL?)"), "\(error.description)")
            #expect(error.description.contains("OTEL_TRACE_EXPORTER is not a setting Portvakt reads (did you mean OTEL_TRACES_EXPORTER?)"))
            #expect(!error.description.contains("smtp://mail.example.no"), "never the value")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("In development a setting Portvakt does not read is a warning; what the exporter, the CLI and the _FILE convention read is known")
    func unknownInDevelopment() throws {
        let configuration = try ServerConfiguration.load(.development, from: [
            "PORTVAKT_LOGLEVEL": "debug", "PORTVAKT_QQQQQQQQQQQQQQQQQQ": "1",
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SERVICE_NAME": "portvakt",
            "PORTVAKT_SERVER": "http://localhost:8080", "PORTVAKT_PROXY_TRACE_HEADER": "x-proxy-traceparent",
            // What Kubernetes and the OpenTelemetry Operator set beside the settings.
            "PORTVAKT_SERVICE_HOST": "10.0.0.1", "PORTVAKT_SERVICE_PORT_HTTP": "8080", "PORTVAKT_PORT_8080_TCP_ADDR": "10.0.0.1",
            "OTEL_METRICS_EXPORTER": "otlp", "OTEL_RESOURCE_ATTRIBUTES_POD_NAME": "portvakt-0", "OTEL_EXPORTER_OTLP_INSECURE": "true",
        ])
        #expect(configuration.warnings.count == 2, "\(configuration.warnings)")
        #expect(configuration.warnings.contains("PORTVAKT_LOGLEVEL is not a setting Portvakt reads (did you mean PORTVAKT_LOG_LEVEL?)"))
        #expect(configuration.warnings.contains("PORTVAKT_QQQQQQQQQQQQQQQQQQ is not a setting Portvakt reads"))
        let link = #expect(throws: ConfigurationError.self) { try ServerConfiguration.load(.development, from: ["PORTVAKT_PORT": "tcp://10.0.0.1:8080"]) }
        #expect(link?.description.contains("Kubernetes service link") == true)
    }

    @Test("Issue 60 review: a PORTVAKT_ file in CREDENTIALS_DIRECTORY that is no secret's name is refused in production, naming the likeliest; a client secret's own name is left alone")
    func unknownCredentialFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-credentials-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "a1=not-read".write(to: directory.appendingPathComponent("PORTVAKT_AUDIT_KEYS"), atomically: true, encoding: .utf8)
        try "client-secret".write(to: directory.appendingPathComponent("medlemsportal-secret"), atomically: true, encoding: .utf8)
        let error = try #require(throws: ConfigurationError.self) {
            try ServerConfiguration.load(.production, from: ConfigurationTests.productionSettings.merging(["CREDENTIALS_DIRECTORY": directory.path]) { $1 })
        }
        #expect(error.description.contains("the credential PORTVAKT_AUDIT_KEYS in CREDENTIALS_DIRECTORY") && error.description.contains("did you mean PORTVAKT_AUDIT_KEY?"), "\(error)")
        #expect(!error.description.contains("medlemsportal") && !error.description.contains("not-read"))
    }

    @Test("Issue 60 review: in production a database on another machine without verify-ca or verify-full is a warning naming verify-full; verify-full, a socket or loopback are not")
    func unverifiedRemoteDatabase() throws {
        let production = ConfigurationTests.productionSettings
        for mode in ["", "?sslmode=prefer", "?sslmode=require", "?sslmode=disable"] {
            let configuration = try ServerConfiguration.load(.production, from: production.merging(["DATABASE_URL": "postgres://portvakt:pw@db.internal:5432/portvakt" + mode]) { $1 })
            #expect(configuration.warnings.contains { $0.contains("db.internal") && $0.contains("verify-full") && !$0.contains("pw") }, "\(mode): \(configuration.warnings)")
        }
        for url in ["postgres://portvakt:pw@db.internal:5432/portvakt?sslmode=verify-full", "postgres://portvakt:pw@127.0.0.1:5432/portvakt",
                    "postgres://portvakt@/portvakt?host=/run/postgresql"] {
            let configuration = try ServerConfiguration.load(.production, from: production.merging(["DATABASE_URL": url]) { $1 })
            #expect(!configuration.warnings.contains { $0.contains("DATABASE_URL") }, "\(url): \(configuration.warnings)")
        }
    }
}

/// docs/configuration.md and the code agree: every setting the server reads is in its table, and
/// the table names no setting the server does not read.
@Suite("Settings table")
struct SettingsTableTests {
    static var repository: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }

    @Test("Every setting read is documented, and every documented setting is read")
    func documentedAsRead() throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let known = ServerConfiguration.knownSettings
        let pattern = try Regex("`((?:PORTVAKT|OTEL)_[A-Z_]+|DATABASE_URL)`")
        let mentioned = Set(text.matches(of: pattern).map { String(text[$0.range].dropFirst().dropLast()) })
        let undocumented = known.subtracting(mentioned).sorted()
        #expect(undocumented.isEmpty, "read but not in docs/configuration.md: \(undocumented)")
        // The table's first column: what an operator may set.
        var listed: Set<String> = []
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let first = String(line.dropFirst().prefix { $0 != "|" })
            listed.formUnion(first.matches(of: pattern).map { String(first[$0.range].dropFirst().dropLast()) })
        }
        let unknown = listed.subtracting(known).subtracting(["PORTVAKT_CONFIG_FILE"]).sorted()
        #expect(unknown.isEmpty, "in docs/configuration.md's table but read by nothing: \(unknown)")
    }
}
