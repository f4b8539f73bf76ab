import Foundation
import PortvaktCore
import PortvaktServer
import Testing

@Suite("Configuration")
struct ConfigurationTests {
    @Test("No settings: development on SQLite in ./.portvakt, 127.0.0.1:8080, sandbox on")
    func defaults() throws {
        let configuration = try ServerConfiguration.load(.development, from: [:])
        #expect(configuration.environment == .development)
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.sandboxEnabled)
        #expect(configuration.publicURL == "http://127.0.0.1:8080")
        guard case .sqlite(let path) = configuration.database else { Issue.record("expected SQLite"); return }
        #expect(path == "./.portvakt/portvakt.sqlite")
    }

    @Test("DATABASE_URL switches to PostgreSQL and is described without its password")
    func postgres() throws {
        let configuration = try ServerConfiguration.load(.development, from: ["DATABASE_URL": "postgres://portvakt:hunter2@db.internal:6432/portvakt?sslmode=require"])
        guard case .postgres(let url) = configuration.database else { Issue.record("expected PostgreSQL"); return }
        #expect(url.host == "db.internal")
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

    @Test("S23.6: `serve` (production) refuses to start without its keys, a database and an https public URL, and never runs the sandbox")
    func productionRules() throws {
        let keys = DataProtectionKeys.generateText()
        let production = [
            "PORTVAKT_ENCRYPTION_KEYS": keys.encryptionKeys, "PORTVAKT_INDEX_KEY": keys.indexKey,
            "DATABASE_URL": "postgres://portvakt:pw@db.internal:5432/portvakt", "PORTVAKT_PUBLIC_URL": "https://login.example.no",
        ]
        let configuration = try ServerConfiguration.load(.production, from: production)
        #expect(configuration.environment == .production)
        #expect(!configuration.sandboxEnabled)

        // With nothing set, every missing setting is named, and the way to try Portvakt is shown.
        let nothing = try #require(throws: ConfigurationError.self) { try ServerConfiguration.load(.production, from: [:]) }
        for name in ["PORTVAKT_ENCRYPTION_KEYS", "PORTVAKT_INDEX_KEY", "DATABASE_URL", "PORTVAKT_PUBLIC_URL", "portvakt-server dev"] {
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
}
