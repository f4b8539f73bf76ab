import Foundation
import Logging
import PortvaktModels
import SQLKit

/// Brings a database up to ``Migration/all``.
///
/// Safe when several instances start at once: the whole run is one transaction that first takes
/// the driver's migration lock (a PostgreSQL advisory lock; SQLite's write lock), so the second
/// instance waits, then finds every migration applied. DDL is transactional on both engines, so a
/// failed migration leaves no half-made table behind.
public struct Migrator: Sendable {
    static let table = "portvakt_migrations"

    private let driver: any DatabaseDriver
    private let migrations: [Migration]
    private let logger: Logger

    public init(driver: any DatabaseDriver, migrations: [Migration] = Migration.all, logger: Logger) {
        self.driver = driver
        self.migrations = migrations
        self.logger = logger
    }

    /// Applies what is missing and returns the versions it applied (empty when up to date).
    /// - Throws: ``StoreError/schemaTooNew(_:)`` when the database is ahead of this build.
    @discardableResult
    public func migrate(now: Date = Date()) async throws -> [Int] {
        let migrations = self.migrations
        let driver = self.driver
        let kind = driver.kind
        let applied = try await driver.withTransaction { database in
            try await driver.lockForMigration(database)
            try await database.create(table: Self.table).ifNotExists()
                .column("version", type: .bigint, .primaryKey(autoIncrement: false))
                .column("name", type: .text, .notNull)
                .column("applied_at", type: .bigint, .notNull)
                .run()
            try await Self.addCompatibility(database, kind: kind)
            let done = try await Self.applied(database)
            try Self.checkCompatible(done, newestKnown: migrations.map(\.version).max() ?? 0)
            var applied: [Int] = []
            for (index, migration) in migrations.enumerated() where done[migration.version] == nil {
                try await migration.apply(database)
                let compatibleFrom = Migration.compatibleFrom(at: index, of: migrations)
                try await database.insert(into: Self.table)
                    .columns("version", "name", "applied_at", "compatible_from")
                    .values(SQLBind(migration.version), SQLBind(migration.name), SQLBind(now.millisecondsSince1970), SQLBind(compatibleFrom))
                    .run()
                applied.append(migration.version)
            }
            return applied
        }
        for version in applied {
            logger.info("applied database migration", metadata: ["version": "\(version)"])
        }
        return applied
    }

    /// The migrations this build has that the database lacks; empty when it is current. Only
    /// reads: the operator's commands call it and never migrate (only `migrate` and `serve` change
    /// the schema, so a command run during a rolling upgrade cannot take the old release's schema away).
    /// - Throws: ``StoreError/schemaTooNew(_:)`` as ``migrate(now:)`` does.
    public func pendingVersions() async throws -> [Int] {
        let migrations = self.migrations
        let kind = driver.kind
        return try await driver.withSession { database in
            guard try await Self.tableExists(database, kind: kind) else { return migrations.map(\.version) }
            let done = try await Self.applied(database)
            try Self.checkCompatible(done, newestKnown: migrations.map(\.version).max() ?? 0)
            return migrations.map(\.version).filter { done[$0] == nil }
        }
    }

    /// Applied versions with the oldest release each leaves running (nil: recorded before the
    /// column existed, by a release that knew them all).
    private static func applied(_ database: any SQLDatabase) async throws -> [Int: Int?] {
        var done: [Int: Int?] = [:]
        for row in try await database.raw("SELECT version, compatible_from FROM \(unsafeRaw: table)").all() {
            done[try row.decode(column: "version", as: Int.self)] = try row.decode(column: "compatible_from", as: Int?.self)
        }
        return done
    }

    /// A database ahead of this build is served only when every newer migration says it leaves
    /// this build's schema in place (expand, then contract a release later).
    private static func checkCompatible(_ done: [Int: Int?], newestKnown: Int) throws {
        for (version, compatibleFrom) in done where version > newestKnown {
            guard let compatibleFrom, compatibleFrom <= newestKnown else { throw StoreError.schemaTooNew(String(done.keys.max()!)) }
        }
    }

    private static func tableExists(_ database: any SQLDatabase, kind: DatabaseKind) async throws -> Bool {
        let query: SQLQueryString = kind == .postgres
            ? "SELECT to_regclass(\(bind: table))::text AS name"
            : "SELECT name FROM sqlite_master WHERE type = 'table' AND name = \(bind: table)"
        let row = try await database.raw(query).first()
        return try row?.decode(column: "name", as: String?.self) != nil
    }

    /// `compatible_from` on the migrations table, added once (release 1.0.0).
    private static func addCompatibility(_ database: any SQLDatabase, kind: DatabaseKind) async throws {
        if kind == .postgres {
            try await database.raw("ALTER TABLE \(unsafeRaw: table) ADD COLUMN IF NOT EXISTS compatible_from bigint").run()
            return
        }
        let columns = try await database.raw("PRAGMA table_info(\(unsafeRaw: table))").all().map { try $0.decode(column: "name", as: String.self) }
        if !columns.contains("compatible_from") {
            try await database.raw("ALTER TABLE \(unsafeRaw: table) ADD COLUMN compatible_from BIGINT").run()
        }
    }

    /// The versions recorded as applied.
    public func appliedVersions() async throws -> [Int] {
        try await driver.withSession { database in
            try await database.select().column("version").from(Self.table).orderBy("version")
                .all().map { try $0.decode(column: "version", as: Int.self) }
        }
    }
}
