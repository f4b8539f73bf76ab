import Foundation
import Logging
import ServiceLifecycle
import SQLiteKit
import SQLKit

/// One SQLite file, reached through one connection that runs one transaction at a time.
///
/// SQLite serialises writers anyway; a single connection behind a lock keeps transactions from
/// interleaving and needs no pool. Use PostgreSQL to run several server instances.
public final class SQLiteDriver: DatabaseDriver {
    public let kind = DatabaseKind.sqlite
    private let connection: SQLiteConnection
    private let database: any SQLDatabase
    /// The same file for the hot paths, whose transactions run synchronously (see ``withDirectTransaction(_:)``).
    private let direct: SQLiteDirectConnection
    private let lock = AsyncLock()

    /// Opens (creating if needed) the database at `path`, with foreign keys enforced, WAL on and
    /// `synchronous = NORMAL`.
    public init(path: String, logger: Logger) async throws {
        connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        // No query log: binds would carry nonces, emails and other values that stay out of logs.
        database = connection.sql(queryLogLevel: nil)
        // synchronous=NORMAL with WAL: no fsync per commit, still never corrupt; a power cut may lose the last
        // commits (a few refreshes: their users log in again). https://www.sqlite.org/pragma.html#pragma_synchronous
        for pragma in ["PRAGMA foreign_keys = ON", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA busy_timeout = 5000"] {
            try await database.raw(SQLQueryString(pragma)).run()
        }
        direct = try SQLiteDirectConnection(path: path)
    }

    /// Runs `body` in one transaction on the direct connection, in one go on this thread: for
    /// the hot paths (a refresh rotation is one trip, not eight). It takes its turn with every
    /// other transaction, so it sees and is seen by them as if it ran through SQLKit.
    func withDirectTransaction<R: Sendable>(_ body: @escaping @Sendable (SQLiteDirectConnection) throws -> R) async throws -> R {
        let direct = self.direct
        return try await lock.withLock {
            do {
                return try direct.transaction(body)
            } catch let failure as SQLiteFailure {
                throw failure.storeError ?? failure
            }
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
            try await database.raw("BEGIN IMMEDIATE").run()
            do {
                let result = try await Self.translatingErrors { try await body(database) }
                try await database.raw("COMMIT").run()
                return result
            } catch {
                try? await database.raw("ROLLBACK").run()
                throw error
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

    /// Closes the file once running transactions end. Not cancellable: the shutdown path runs
    /// in cancelled tasks, and an unclosed connection would lose the WAL checkpoint.
    public func close() async throws {
        let connection = self.connection
        let direct = self.direct
        try await lock.withLock {
            direct.close()
            try await connection.close().get()
        }
    }

    private static func translatingErrors<R>(_ body: () async throws -> R) async throws -> R {
        do {
            return try await body()
        } catch let error as SQLiteError {
            throw translate(error) ?? error
        }
    }

    static func translate(_ error: SQLiteError) -> StoreError? {
        // SQLite names the columns, e.g. "UNIQUE constraint failed: identities.provider, identities.subject".
        let detail = error.message.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
        switch error.reason {
        case .constraintUniqueFailed, .constraintPrimaryKeyFailed: return .duplicate(detail)
        case .constraintForeignKeyFailed: return .missingReference(detail)
        case .constraint, .constraintCheckFailed, .constraintNotNullFailed:
            return error.message.hasPrefix("UNIQUE") ? .duplicate(detail) : .constraint(detail)
        default: return nil
        }
    }
}
