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
        let applied = try await driver.withTransaction { database in
            try await driver.lockForMigration(database)
            try await database.create(table: Self.table).ifNotExists()
                .column("version", type: .bigint, .primaryKey(autoIncrement: false))
                .column("name", type: .text, .notNull)
                .column("applied_at", type: .bigint, .notNull)
                .run()
            let done = Set(try await database.select().column("version").from(Self.table)
                .all().map { try $0.decode(column: "version", as: Int.self) })
            if let newest = done.max(), newest > (migrations.map(\.version).max() ?? 0) {
                throw StoreError.schemaTooNew(String(newest))
            }
            var applied: [Int] = []
            for migration in migrations where !done.contains(migration.version) {
                try await migration.apply(database)
                try await database.insert(into: Self.table)
                    .columns("version", "name", "applied_at")
                    .values(SQLBind(migration.version), SQLBind(migration.name), SQLBind(now.millisecondsSince1970))
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

    /// The migrations this build has that the database lacks; empty when it is current. The
    /// operator's commands read this and never migrate: only `migrate` and `serve` change the
    /// schema, so a command run during a rolling upgrade cannot take the old release's schema away.
    public func pendingVersions() async throws -> [Int] {
        let migrations = self.migrations
        return try await driver.withSession { database in
            try await database.create(table: Self.table).ifNotExists()
                .column("version", type: .bigint, .primaryKey(autoIncrement: false))
                .column("name", type: .text, .notNull)
                .column("applied_at", type: .bigint, .notNull)
                .run()
            let done = Set(try await database.select().column("version").from(Self.table)
                .all().map { try $0.decode(column: "version", as: Int.self) })
            if let newest = done.max(), newest > (migrations.map(\.version).max() ?? 0) {
                throw StoreError.schemaTooNew(String(newest))
            }
            return migrations.map(\.version).filter { !done.contains($0) }
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
