import Logging
import Metrics
import PortvaktModels
import PostgresKit
import PostgresNIO
import ServiceLifecycle
import SQLKit

/// A PostgreSQL connection pool (PostgresNIO's `PostgresClient`); several server instances may
/// share the database.
public final class PostgresDriver: DatabaseDriver {
    public let kind = DatabaseKind.postgres
    private let client: PostgresClient
    private let closeWatch = ConnectionCloseWatch()
    private let logger: Logger
    /// This pool's own: whether its database is down is told by its own connections alone.
    private let deadlines = LeaseDeadlines(timeout: PostgresDriver.leaseTimeout, patience: PostgresDriver.leasePatience)

    /// An arbitrary constant that names Portvakt's migration lock among advisory locks.
    public static let migrationLockID: Int64 = 0x506F_7274_7661_6B74 // "Portvakt"

    public init(url: PostgresURL, logger: Logger) {
        self.client = PostgresClient(configuration: url.clientConfiguration, backgroundLogger: logger)
        self.logger = logger
    }

    public func withSession<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let (logger, client, closeWatch, deadlines) = (self.logger, self.client, self.closeWatch, self.deadlines)
        return try await Self.translatingErrors {
            try await Self.leased(deadlines) { started in
                try await client.withConnection { connection in
                    started()
                    return try await closeWatch.untilClosed(connection) { try await body(connection.sql(queryLogLevel: nil, logger: logger)) }
                }
            }
        }
    }

    public func withTransaction<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let (logger, client, closeWatch, deadlines) = (self.logger, self.client, self.closeWatch, self.deadlines)
        return try await Self.translatingErrors {
            try await Self.leased(deadlines) { started in
                try await client.withConnection { connection in
                    started()
                    return try await closeWatch.untilClosed(connection) {
                        try await connection.withTransaction(logger: logger) { connection in
                            try await body(connection.sql(queryLogLevel: nil, logger: logger))
                        }
                    }
                }
            }
        }
    }

    /// How long a request waits for a connection while none is being handed out. The pool would
    /// wait for ever while the database refuses connections; the caller should hear
    /// "unavailable, try again" instead, within 2 s of asking (the deadline's ticker may add a
    /// quarter of a second). A pool that is busy but serving keeps its waiters in line
    /// (``LeaseDeadlines``).
    static let leaseTimeout: Duration = .milliseconds(1500)
    /// How long a request waits its turn in a pool that is busy but serving (a burst).
    static let leasePatience: Duration = .seconds(4)

    /// Runs `operation`, which calls `started` once it holds a connection; throws
    /// ``StoreError/unavailable(_:)`` when that has not happened within ``leaseTimeout``. The
    /// work on the connection itself is not limited (a migration may wait for another's lock).
    private static func leased<R: Sendable>(
        _ deadlines: LeaseDeadlines, _ operation: @escaping @Sendable (_ started: @escaping @Sendable () -> Void) async throws -> R
    ) async throws -> R {
        let lease = deadlines.ask()
        let asked = ContinuousClock.now
        return try await withThrowingTaskGroup(of: R?.self) { group in
            group.addTask {
                defer { deadlines.finish(lease) }
                return try await operation {
                    deadlines.started(lease)
                    Timer(label: "portvakt_database_pool_wait_seconds").record(duration: ContinuousClock.now - asked)
                }
            }
            group.addTask {
                guard await deadlines.outcome(lease) else { throw StoreError.unavailable("no database connection within \(leaseTimeout)") }
                return nil
            }
            while let result = try await group.next() {
                if let value = result {
                    group.cancelAll()
                    return value
                }
            }
            throw CancellationError()
        }
    }

    /// A transaction-scoped advisory lock: a second instance waits here until the first commits.
    public func lockForMigration(_ database: any SQLDatabase) async throws {
        try await database.raw("SELECT pg_advisory_xact_lock(\(bind: Self.migrationLockID))").run()
    }

    /// Runs the pool until shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown { await self.client.run() }
    }

    private static func translatingErrors<R>(_ body: () async throws -> R) async throws -> R {
        do {
            return try await body()
        } catch let error as PSQLError {
            throw translate(error) ?? error
        } catch let error as PostgresTransactionError {
            // Unwrap so callers see the same errors inside and outside transactions.
            let underlying = error.closureError ?? error.commitError ?? error.beginError ?? error
            throw (underlying as? PSQLError).flatMap(translate) ?? underlying
        }
    }

    /// SQLSTATE class 23: integrity constraint violations.
    static func translate(_ error: PSQLError) -> StoreError? {
        let constraint = error.serverInfo?[.constraintName]
        switch error.serverInfo?[.sqlState] {
        case "23505": return .duplicate(constraint)
        case "23503": return .missingReference(constraint)
        case "23502", "23514": return .constraint(constraint)
        default: return nil
        }
    }
}
