import Foundation
import Logging
import PortvaktStorage

/// Opening the configured database and waiting until it answers.
enum DatabaseConnection {
    /// The driver for the configured database. SQLite's file (and its folder) is created here.
    static func open(_ database: ServerConfiguration.Database, logger: Logger) async throws -> any DatabaseDriver {
        switch database {
        case .sqlite(let path):
            let folder = (path as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                return try await SQLiteDriver(path: path, logger: logger)
            } catch {
                throw StartupError("cannot open the SQLite database at \(path) (PORTVAKT_DATA_DIR): \(error)")
            }
        case .postgres(let url):
            return PostgresDriver(url: url, logger: logger)
        }
    }

    /// Pings until the database answers, logging each failure, for at most `wait`. A
    /// PostgreSQL connection that fails is opened once more outside the pool to learn why; a
    /// lasting reason (a certificate, a password, a missing database) ends the wait at once.
    /// - Throws: ``StartupError`` naming the database (never its password) and the reason.
    static func waitUntilReachable(
        _ driver: any DatabaseDriver, database: ServerConfiguration.Database, wait: Duration, logger: Logger
    ) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: wait)
        var attempt = 1
        while true {
            var reason = "no answer"
            do {
                if case .postgres(let url) = database, let problem = await url.connectionProblem(logger: logger) {
                    guard !problem.isLasting else { throw StartupError("cannot use the database: \(problem.description)") }
                    reason = problem.description
                } else {
                    try await withTimeout(.seconds(5)) { try await driver.ping() }
                    return
                }
            } catch let error as StartupError {
                throw error
            } catch {
                reason = String(describing: type(of: error))
            }
            guard clock.now < deadline else {
                throw StartupError("cannot reach the database at \(database) after \(wait): \(reason); is it running, and is DATABASE_URL right?")
            }
            logger.warning("database not reachable yet; retrying", metadata: [
                "database": "\(database)", "attempt": "\(attempt)", "reason": "\(reason)",
            ])
            attempt += 1
            try await Task.sleep(for: .seconds(min(attempt, 5)))
        }
    }
}

extension ServerConfiguration.Database: CustomStringConvertible {
    /// Where the data lives, without credentials.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let url): url.description
        }
    }
}

/// A reason the server or a command cannot start, said in one line: so far always that the
/// database cannot be opened or reached (exit code 69, EX_UNAVAILABLE).
public struct StartupError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

struct TimeoutError: Error {}

/// Runs `body`, or throws ``TimeoutError`` when it takes longer than `limit`.
func withTimeout<R: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> R) async throws -> R {
    try await withThrowingTaskGroup(of: R?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        let first = try await group.next()
        group.cancelAll()
        guard let value = first ?? nil else { throw TimeoutError() }
        return value
    }
}
