import Foundation
import Logging
import ServiceLifecycle
import NIOPosix
import PortvaktModels
import SQLKit

/// One SQLite file, reached through one connection that runs one transaction at a time.
///
/// SQLite serialises writers anyway; a single connection behind a lock keeps transactions from
/// interleaving and needs no pool. Use PostgreSQL to run several server instances.
public final class SQLiteDriver: DatabaseDriver {
    public let kind = DatabaseKind.sqlite
    private let connection: SQLiteDirectConnection
    private let database: SQLiteDirectDatabase
    private let lock = AsyncLock()

    /// Opens (creating if needed) the database at `path`, with foreign keys enforced, WAL on and
    /// `synchronous = NORMAL`.
    public init(path: String, logger: Logger) async throws {
        do {
            connection = try SQLiteDirectConnection(path: path)
        } catch let failure as SQLiteFailure {
            throw StoreError.unavailable("SQLite at \(path): \(failure.message)")
        }
        database = SQLiteDirectDatabase(connection: connection, logger: logger, eventLoop: MultiThreadedEventLoopGroup.singleton.any())
    }

    /// Runs `body` in one transaction on the connection itself, for the hot paths whose
    /// statements are hand-written (a refresh rotation reads its rows by column position). It
    /// takes its turn with every other transaction.
    func withDirectTransaction<R: Sendable>(_ body: @escaping @Sendable (SQLiteDirectConnection) throws -> R) async throws -> R {
        let connection = self.connection
        return try await lock.withLock {
            try await Self.translatingErrors { try connection.transaction(body) }
        }
    }

    public func withSession<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let database = self.database
        return try await lock.withLock {
            try await Self.translatingErrors { try await body(database) }
        }
    }

    public func withTransaction<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let database = self.database
        return try await lock.withLock {
            try await Self.translatingErrors {
                try database.connection.run("BEGIN IMMEDIATE")
                do {
                    let result = try await body(database)
                    try database.connection.run("COMMIT")
                    return result
                } catch {
                    _ = try? database.connection.run("ROLLBACK")
                    throw error
                }
            }
        }
    }

    /// `BEGIN IMMEDIATE` already holds SQLite's write lock for the whole migration.
    public func lockForMigration(_ database: any SQLDatabase) async throws {}

    /// Waits for shutdown, then closes the file.
    public func run() async throws {
        try? await gracefulShutdown()
        try await close()
    }

    /// Closes the file once running transactions end (the last connection to close checkpoints
    /// the WAL). Not cancellable: the shutdown path runs in cancelled tasks.
    public func close() async throws {
        let connection = self.connection
        try await lock.withLock { connection.close() }
    }

    /// A constraint failure becomes the ``StoreError`` it means; anything else stays as it is.
    private static func translatingErrors<R>(_ body: () async throws -> R) async throws -> R {
        do {
            return try await body()
        } catch let failure as SQLiteFailure {
            throw failure.storeError ?? failure
        }
    }
}
