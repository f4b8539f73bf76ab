import Foundation
import PortvaktCore
import PortvaktServer
import Testing

@Suite("Configuration")
struct ConfigurationTests {
    @Test("No settings: development on SQLite in ./.portvakt, 127.0.0.1:8080 named http://localhost:8080, sandbox on")
    func defaults() throws {
        let configuration = try ServerConfiguration.load(.development, from: [:])
        #expect(configuration.environment == .development)
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.sandboxEnabled)
        // WebAuthn's RP ID must be a domain, so development names itself localhost.
        #expect(configuration.publicURL == "http://localhost:8080")
        guard case .sqlite(let path) = configuration.database else { Issue.record("expected SQLite"); return }
        #expect(path == "./.portvakt/portvakt.sqlite")
    }

    @Test("DATABASE_URL switches to PostgreSQL and is described without its password")
    func postgres() throws {
        let configuration = try ServerConfiguration.load(.development, from: ["DATABASE_URL": "postgres://portvakt:hunter2@localhost:6432/portvakt?sslmode=require"])
        guard case .postgres(let url) = configuration.database else { Issue.record("expected PostgreSQL"); return }
        #expect(url.host == "localhost")
        #expect(url.port == 6432)
        #expect(url.tls == .require)
        #expect(!"\(configuration.database)".contains("hunter2"))
    }

    @Test("A malformed setting gives one line that names it, without its value", arguments: [
        ("PORTVAKT_PORT", "eighty"),
        ("PORTVAKT_PORT", "70000"),
        ("PORTVAKT_ENV", "staging"),
        ("PORTVAKT_SANDBOX", "maybe"),
        ("PORTVAKT_LOG_LEVEL", "loud"),
        ("PORTVAKT_DATABASE_WAIT_SECONDS", "-1"),
        ("PORTVAKT_PUBLIC_URL", "ftp://x"),
        ("DATABASE_URL", "mysql://u:secretpw@h/db"),
        ("DATABASE_URL", "postgres://u:secretpw@h/"),
    ])
    func malformed(name: String, value: String) {
        do {
            _ = try ServerConfiguration.load(.development, from: [name: value])
            Issue.record("accepted \(name)=\(value)")
        } catch {
            #expect(error.description.contains(name))
            #expect(!error.description.contains("secretpw"))
            #expect(!error.description.contains("\n"))
        }
    }

    /// What `serve` needs to start.
    static var productionSettings: [String: String] {
        let keys = DataProtectionKeys.generateText()
        return [
            "PORTVAKT_ENCRYPTION_KEYS": keys.encryptionKeys, "PORTVAKT_INDEX_KEY": keys.indexKey,
            "DATABASE_URL": "postgres://portvakt:pw@db.internal:5432/portvakt", "PORTVAKT_PUBLIC_URL": "https://login.example.no",
            "PORTVAKT_CLIENTS_FILE": clientsFile,
        ]
    }

    /// A clients file with one app, written once for the production settings.
    static let clientsFile: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-clients-\(UUID().uuidString).json").path
        let json = #"{"clients": [{"client_id": "no.example.app", "token_endpoint_auth_method": "none", "redirect_uris": ["no.example.app:/cb"]}]}"#
        FileManager.default.createFile(atPath: path, contents: Data(json.utf8))
        return path
    }()

    @Test("`serve` (production) refuses to start without its keys, a database, an https public URL and its clients (issue 46), and never runs the sandbox")
    func productionRules() throws {
        let production = Self.productionSettings
        let configuration = try ServerConfiguration.load(.production, from: production)
        #expect(configuration.environment == .production)
        #expect(!configuration.sandboxEnabled)

        // With nothing set, every missing setting is named, and the way to try Portvakt is shown.
        let nothing = try #require(throws: ConfigurationError.self) { try ServerConfiguration.load(.production, from: [:]) }
        for name in ["PORTVAKT_ENCRYPTION_KEYS", "PORTVAKT_INDEX_KEY", "DATABASE_URL", "PORTVAKT_PUBLIC_URL", "PORTVAKT_CLIENTS_FILE", "portvakt-server dev"] {
            #expect(nothing.description.contains(name))
        }
        for name in production.keys {
            let error = try #require(throws: ConfigurationError.self) {
                try ServerConfiguration.load(.production, from: production.filter { $0.key != name })
            }
            #expect(error.description.contains(name))
        }
        let refused: [(String, String)] = [
            ("PORTVAKT_SANDBOX", "on"), ("PORTVAKT_PUBLIC_URL", "http://login.example.no"), ("PORTVAKT_ENV", "development"),
        ]
        for (name, value) in refused {
            let error = try #require(throws: ConfigurationError.self) {
                try ServerConfiguration.load(.production, from: production.merging([name: value]) { $1 })
            }
            #expect(error.description.contains(name))
        }
        // Plain http only on loopback, behind a proxy on the same machine.
        for url in ["http://127.0.0.1:8080", "http://localhost:8080"] {
            #expect(try ServerConfiguration.load(.production, from: production.merging(["PORTVAKT_PUBLIC_URL": url]) { $1 }).publicURL == url)
        }
        #expect(throws: ConfigurationError.self) { try ServerConfiguration.load(.development, from: ["PORTVAKT_ENV": "production"]) }
    }

    @Test("Issue 46 item 3: a secret setting comes from NAME_FILE or systemd's CREDENTIALS_DIRECTORY (one line end taken off); given two ways, unreadable or empty, one line names it, never the value")
    func secretsFromFiles() throws {
        let keys = DataProtectionKeys.generateText()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-secrets-\(UUID().uuidString)")
        let credentials = directory.appendingPathComponent("credentials")
        try FileManager.default.createDirectory(at: credentials, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let indexFile = directory.appendingPathComponent("index")
        try Data((keys.indexKey + "\n").utf8).write(to: indexFile)
        let encryptionFile = directory.appendingPathComponent("encryption")
        try Data((keys.encryptionKeys + "\r\n").utf8).write(to: encryptionFile)
        let token = "metrics-token-from-systemd-0123456789"
        try Data((token + "\n").utf8).write(to: credentials.appendingPathComponent("PORTVAKT_METRICS_TOKEN"))
        let production = [
            "PORTVAKT_ENCRYPTION_KEYS_FILE": encryptionFile.path, "PORTVAKT_INDEX_KEY_FILE": indexFile.path,
            "CREDENTIALS_DIRECTORY": credentials.path, "PORTVAKT_CLIENTS_FILE": Self.clientsFile,
            "DATABASE_URL": "postgres://portvakt:pw@db.internal:5432/portvakt", "PORTVAKT_PUBLIC_URL": "https://login.example.no",
        ]
        let configuration = try ServerConfiguration.load(.production, from: production)
        #expect(configuration.metricsToken == token)
        #expect(configuration.indexKey == keys.indexKey && configuration.encryptionKeys == keys.encryptionKeys, "one line end taken off, \\n or \\r\\n")

        let refusals: [([String: String], String)] = [
            (production.merging(["PORTVAKT_INDEX_KEY": keys.indexKey]) { $1 }, "PORTVAKT_INDEX_KEY is given 2 ways"),
            (production.merging(["PORTVAKT_METRICS_TOKEN": token]) { $1 }, "PORTVAKT_METRICS_TOKEN is given 2 ways"),
            (production.merging(["PORTVAKT_INDEX_KEY_FILE": directory.appendingPathComponent("missing").path]) { $1 }, "PORTVAKT_INDEX_KEY_FILE: cannot read"),
        ]
        for (environment, words) in refusals {
            let error = try #require(throws: ConfigurationError.self) { try ServerConfiguration.load(.production, from: environment) }
            #expect(error.description.contains(words), "\(error.description)")
            #expect(!error.description.contains(keys.indexKey) && !error.description.contains(token))
        }
        try Data("\n".utf8).write(to: indexFile)
        let empty = try #require(throws: ConfigurationError.self) { try ServerConfiguration.load(.production, from: production) }
        #expect(empty.description.contains("PORTVAKT_INDEX_KEY_FILE") && empty.description.contains("empty"))
    }

    @Test("Security review III, item 6: development (`dev`, `--dev`) seeds test people, so it refuses a PostgreSQL host that is not loopback", arguments: [
        ("db.internal", false), ("10.0.0.5", false), ("127.evil.example", false), ("127.0.0.1.nip.io", false), ("localhost", true),
        ("127.0.0.1", true), ("127.8.9.10", true), ("[::1]", true),
    ])
    func developmentDatabaseOnLoopback(host: String, accepted: Bool) throws {
        let settings = ["DATABASE_URL": "postgres://portvakt:secretpw@\(host):5432/portvakt"]
        if accepted {
            do { _ = try ServerConfiguration.load(.development, from: settings) } catch { Issue.record("refused \(host): \(error)") }
        } else {
            let error = try #require(throws: ConfigurationError.self) { try ServerConfiguration.load(.development, from: settings) }
            #expect(error.description.contains("DATABASE_URL") && error.description.contains("loopback"), "\(error)")
            #expect(!error.description.contains("secretpw"))
        }
    }

    @Test("Security review III, item 6: in production the provider discovery, order API and member-system URLs are https (http only on a loopback address, parsed, so 127.evil.example is not one)")
    func productionUpstreamsUseHTTPS() throws {
        let production = Self.productionSettings
        // The order API over https takes the relying party's client certificate; HTTP Basic is the sandbox's.
        let certificates = try TestCertificates()
        defer { certificates.remove() }
        let relyingParty = try certificates.issue("relying-party", by: try certificates.authority("bankid-ca"))
        let upstreams: [(name: String, settings: (String) -> [String: String])] = [
            ("PORTVAKT_VIPPS_DISCOVERY_URL", { ["PORTVAKT_VIPPS_DISCOVERY_URL": $0, "PORTVAKT_VIPPS_CLIENT_ID": "portvakt", "PORTVAKT_VIPPS_CLIENT_SECRET": "vipps-secret"] }),
            ("PORTVAKT_BANKID_DISCOVERY_URL", { ["PORTVAKT_BANKID_DISCOVERY_URL": $0, "PORTVAKT_BANKID_CLIENT_ID": "portvakt", "PORTVAKT_BANKID_CLIENT_SECRET": "bankid-secret"] }),
            ("PORTVAKT_BANKID_ORDER_API_URL", {
                $0.hasPrefix("https:")
                    ? ["PORTVAKT_BANKID_ORDER_API_URL": $0, "PORTVAKT_BANKID_ORDER_CLIENT_CERTIFICATE_FILE": relyingParty.certificate, "PORTVAKT_BANKID_ORDER_CLIENT_KEY_FILE": relyingParty.key]
                    : ["PORTVAKT_BANKID_ORDER_API_URL": $0, "PORTVAKT_BANKID_ORDER_CLIENT_ID": "portvakt", "PORTVAKT_BANKID_ORDER_CLIENT_SECRET": "orders-secret"]
            }),
            ("PORTVAKT_MEMBER_SYSTEMS", { ["PORTVAKT_MEMBER_SYSTEMS": "nhf=\($0)", "PORTVAKT_MEMBER_SYSTEM_SECRETS": "nhf=member-secret-0123456789"] }),
        ]
        for (name, settings) in upstreams {
            for url in ["https://idp.example.no/x", "http://127.0.0.1:9000/x", "http://localhost:9000/x", "http://[::1]:9000/x"] {
                do { _ = try ServerConfiguration.load(.production, from: production.merging(settings(url)) { $1 }) } catch { Issue.record("refused \(name)=\(url): \(error)") }
            }
            for url in ["http://idp.example.no/x", "http://127.evil.example/x", "http://10.0.0.5/x"] {
                do {
                    _ = try ServerConfiguration.load(.production, from: production.merging(settings(url)) { $1 })
                    Issue.record("accepted \(name)=\(url) in production")
                } catch {
                    let message = "\(error)"
                    #expect(message.contains(name) && message.contains("https"), "\(message)")
                }
                // Development keeps allowing plain http (the sandbox, a provider's test system).
                do { _ = try ServerConfiguration.load(.development, from: settings(url)) } catch { Issue.record("refused \(name)=\(url) in development: \(error)") }
            }
        }
        // The public URL's loopback test parses the host too.
        let error = try #require(throws: ConfigurationError.self) {
            try ServerConfiguration.load(.production, from: production.merging(["PORTVAKT_PUBLIC_URL": "http://127.evil.example"]) { $1 })
        }
        #expect(error.description.contains("PORTVAKT_PUBLIC_URL"))
        for url in ["http://127.0.0.2:8080", "http://[::1]:8080"] {
            #expect(try ServerConfiguration.load(.production, from: production.merging(["PORTVAKT_PUBLIC_URL": url]) { $1 }).publicURL == url)
        }
    }

    @Test("A JSON file supplies settings; the environment wins over it")
    func file() throws {
        let path = try writeFile(#"{"PORTVAKT_PORT": 9090, "PORTVAKT_HOST": "0.0.0.0", "PORTVAKT_SANDBOX": false}"#)
        let configuration = try ServerConfiguration.load(.development, from: ["PORTVAKT_CONFIG_FILE": path, "PORTVAKT_HOST": "127.0.0.2"])
        #expect(configuration.port == 9090)
        #expect(configuration.host == "127.0.0.2")
        #expect(!configuration.sandboxEnabled)
    }

    @Test("A file that is missing, not JSON, or names an unknown setting is refused by name", arguments: [
        #"{"PORTVAKT_PROT": 9090}"#, "port = 9090", #"{"PORTVAKT_PORT": [1]}"#,
    ])
    func badFile(contents: String) throws {
        let path = try writeFile(contents)
        #expect(throws: ConfigurationError.self) { try ServerConfiguration.load(.development, from: ["PORTVAKT_CONFIG_FILE": path]) }
        #expect(throws: ConfigurationError.self) { try ServerConfiguration.load(.development, from: ["PORTVAKT_CONFIG_FILE": path + ".missing"]) }
    }

    private func writeFile(_ contents: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-\(UUID().uuidString).json").path
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("Review II item 9: the token-less metrics port binds loopback unless PORTVAKT_METRICS_HOST says otherwise; review III item 6: BankID orders per address are a setting")
    func metricsHostAndOrderLimit() throws {
        let defaults = try ServerConfiguration.load(.development, from: ["PORTVAKT_HOST": "0.0.0.0"])
        #expect(defaults.metricsHost == "127.0.0.1", "not PORTVAKT_HOST")
        #expect(defaults.bankIDOrdersPerAddress == 20)
        let set = try ServerConfiguration.load(.development, from: ["PORTVAKT_METRICS_HOST": "10.0.0.5", "PORTVAKT_BANKID_ORDERS_PER_ADDRESS": "200"])
        #expect(set.metricsHost == "10.0.0.5" && set.bankIDOrdersPerAddress == 200)
        #expect(throws: ConfigurationError.self) { try ServerConfiguration.load(.development, from: ["PORTVAKT_BANKID_ORDERS_PER_ADDRESS": "0"]) }
    }
}
