import Foundation
import PortvaktCore
import PortvaktServer
import Testing

@Suite("Configuration")
struct ConfigurationTests {
    @Test("No settings: development on SQLite in ./.portvakt, 127.0.0.1:8080, sandbox on")
    func defaults() throws {
        let configuration = try ServerConfiguration.load(from: [:])
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
        let configuration = try ServerConfiguration.load(from: ["DATABASE_URL": "postgres://portvakt:hunter2@db.internal:6432/portvakt?sslmode=require"])
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
            _ = try ServerConfiguration.load(from: [name: value])
            Issue.record("accepted \(name)=\(value)")
        } catch {
            #expect(error.description.contains(name))
            #expect(!error.description.contains("secretpw"))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("Production needs real keys and refuses the sandbox")
    func productionRules() throws {
        #expect(throws: ConfigurationError.self) { try ServerConfiguration.load(from: ["PORTVAKT_ENV": "production"]) }
        let keys = DataProtectionKeys.generateText()
        let production = ["PORTVAKT_ENV": "production", "PORTVAKT_ENCRYPTION_KEYS": keys.encryptionKeys, "PORTVAKT_INDEX_KEY": keys.indexKey]
        let configuration = try ServerConfiguration.load(from: production)
        #expect(!configuration.sandboxEnabled)
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.load(from: production.merging(["PORTVAKT_SANDBOX": "on"]) { $1 })
        }
    }

    @Test("A JSON file supplies settings; the environment wins over it")
    func file() throws {
        let path = try writeFile(#"{"PORTVAKT_PORT": 9090, "PORTVAKT_HOST": "0.0.0.0", "PORTVAKT_SANDBOX": false}"#)
        let configuration = try ServerConfiguration.load(from: ["PORTVAKT_CONFIG_FILE": path, "PORTVAKT_HOST": "127.0.0.2"])
        #expect(configuration.port == 9090)
        #expect(configuration.host == "127.0.0.2")
        #expect(!configuration.sandboxEnabled)
    }

    @Test("A file that is missing, not JSON, or names an unknown setting is refused by name", arguments: [
        #"{"PORTVAKT_PROT": 9090}"#, "port = 9090", #"{"PORTVAKT_PORT": [1]}"#,
    ])
    func badFile(contents: String) throws {
        let path = try writeFile(contents)
        #expect(throws: ConfigurationError.self) { try ServerConfiguration.load(from: ["PORTVAKT_CONFIG_FILE": path]) }
        #expect(throws: ConfigurationError.self) { try ServerConfiguration.load(from: ["PORTVAKT_CONFIG_FILE": path + ".missing"]) }
    }

    private func writeFile(_ contents: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-\(UUID().uuidString).json").path
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
