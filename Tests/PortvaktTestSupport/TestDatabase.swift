import Foundation
import Logging
import PortvaktCore
import PortvaktStorage
import SQLKit

/// Throwaway databases for storage tests: a temporary SQLite file, and a fresh PostgreSQL
/// database on the server named by `TEST_POSTGRES_URL` (`.ci/run` starts one).
public enum TestDatabase {
    public static let postgresURL = ProcessInfo.processInfo.environment["TEST_POSTGRES_URL"]

    /// The engines every storage test runs on. When `CI=true`, PostgreSQL is never skipped:
    /// the `postgresIsRequiredInCI` test fails instead.
    public static var kinds: [DatabaseKind] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    public static let logger = Logger(label: "portvakt.test")

    /// The audit key of stores the tests open themselves.
    public static let auditKeys = try! AuditKeyRing(text: "test=" + Data(repeating: 3, count: 32).base64EncodedString(), setting: "test")

    /// Runs `body` with a migrated store on a new, empty database of `kind`, then removes it.
    public static func withStore(_ kind: DatabaseKind, _ body: @escaping @Sendable (PortvaktStore) async throws -> Void) async throws {
        try await withEmptyDatabase(kind) { open in
            let driver = try await open()
            try await driver.whileRunning {
                try await Migrator(driver: driver, logger: logger).migrate()
                try await body(PortvaktStore(driver: driver, auditKeys: auditKeys))
            }
        }
    }

    /// Runs `body` with a running, unmigrated driver on a new, empty database, logging to `logger`.
    public static func withDriver(
        _ kind: DatabaseKind, logger: Logger, _ body: @escaping @Sendable (any DatabaseDriver) async throws -> Void
    ) async throws {
        try await withEmptyDatabase(kind, logger: logger) { open in
            let driver = try await open()
            try await driver.whileRunning { try await body(driver) }
        }
    }

    /// Gives `body` a function that opens a new driver on one new, empty database of `kind`.
    public static func withEmptyDatabase(
        _ kind: DatabaseKind, logger: Logger = logger, _ body: @escaping @Sendable (_ open: @escaping @Sendable () async throws -> any DatabaseDriver) async throws -> Void
    ) async throws {
        switch kind {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-test-\(UUID().uuidString).sqlite").path
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            try await body { try await SQLiteDriver(path: path, logger: logger) }
        case .postgres:
            let admin = PostgresDriver(url: try PostgresURL(postgresURL!), logger: logger)
            let name = "portvakt_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
            try await admin.whileRunning {
                try await admin.withSession { db in try await db.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
                do {
                    let url = try PostgresURL(postgresURL!.replacingDatabase(with: name))
                    try await body { PostgresDriver(url: url, logger: logger) }
                } catch {
                    try? await admin.withSession { db in try await db.raw("DROP DATABASE \(unsafeRaw: name) WITH (FORCE)").run() }
                    throw error
                }
                try await admin.withSession { db in try await db.raw("DROP DATABASE \(unsafeRaw: name) WITH (FORCE)").run() }
            }
        }
    }
}

extension String {
    /// A postgres URL with its path (database name) replaced.
    public func replacingDatabase(with name: String) -> String {
        var components = URLComponents(string: self)!
        components.path = "/" + name
        return components.string!
    }
}


extension TestDatabase {
    /// For tests that run the whole server: nil for SQLite (the server keeps its file in its data
    /// directory), or the `DATABASE_URL` of a new, empty PostgreSQL database, dropped afterwards.
    public static func withServerDatabase(_ kind: DatabaseKind, _ body: @escaping @Sendable (_ databaseURL: String?) async throws -> Void) async throws {
        guard kind == .postgres, let postgresURL else { return try await body(nil) }
        let admin = PostgresDriver(url: try PostgresURL(postgresURL), logger: logger)
        let name = "portvakt_e2e_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try await admin.whileRunning {
            try await admin.withSession { db in try await db.raw("CREATE DATABASE \(unsafeRaw: name)").run() }
            do {
                try await body(postgresURL.replacingDatabase(with: name))
            } catch {
                try? await admin.withSession { db in try await db.raw("DROP DATABASE \(unsafeRaw: name) WITH (FORCE)").run() }
                throw error
            }
            try await admin.withSession { db in try await db.raw("DROP DATABASE \(unsafeRaw: name) WITH (FORCE)").run() }
        }
    }
}

extension TestDatabase {
    /// Takes a PostgreSQL database away from its clients (no new connections, the open ones ended)
    /// or gives it back: a database outage in the middle of a running server.
    public static func setAvailable(_ available: Bool, database: String) async throws {
        let admin = PostgresDriver(url: try PostgresURL(postgresURL!), logger: logger)
        try await admin.whileRunning {
            try await admin.withSession { db in
                try await db.raw("ALTER DATABASE \(unsafeRaw: database) ALLOW_CONNECTIONS \(unsafeRaw: available ? "true" : "false")").run()
                if !available {
                    try await db.raw("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(bind: database) AND pid <> pg_backend_pid()").run()
                }
            }
        }
    }
}
