import ServiceLifecycle
import SQLKit

/// Which database engine a driver talks to.
public enum DatabaseKind: String, Sendable, CaseIterable {
    case sqlite
    case postgres
}

/// Where the store's SQL runs: one SQLite file, or a PostgreSQL connection pool.
///
/// Queries are written once against SQLKit; a driver only hands out sessions and transactions,
/// and translates its engine's constraint errors into ``StoreError``. As a `Service` it runs
/// for as long as the server does (the PostgreSQL pool needs its run loop).
public protocol DatabaseDriver: Service {
    var kind: DatabaseKind { get }

    /// Runs `body` on one connection, outside a transaction.
    func withSession<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func withTransaction<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R

    /// Inside a migration transaction: waits until no other instance is migrating.
    func lockForMigration(_ database: any SQLDatabase) async throws
}

extension DatabaseDriver {
    /// Whether the database answers a trivial query (for `/health/ready`).
    public func ping() async throws {
        try await withSession { database in try await database.raw("SELECT 1").run() }
    }
}
