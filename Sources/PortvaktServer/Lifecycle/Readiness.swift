import ServiceLifecycle
import Synchronization

/// Where the instance is in its life: `/health/ready` answers 200 only while `ready`, and the
/// background workers start only once the database is migrated.
public final class Readiness: Sendable {
    public enum State: String, Sendable {
        /// Waiting for the database and its migrations.
        case starting
        case ready
        /// Shutting down: finishing what is in flight, taking nothing new.
        case draining
    }

    private let current = Mutex(State.starting)
    private let databaseMigrated = Atomic(false)

    public init() {}

    public var state: State { current.withLock { $0 } }

    func migrated() {
        databaseMigrated.store(true, ordering: .releasing)
        current.withLock { if $0 == .starting { $0 = .ready } }
    }

    func drain() {
        current.withLock { $0 = .draining }
    }

    /// Waits until the database is migrated; false when the calling service is told to stop first.
    /// Draining does not end the wait: a service that returned before its own turn to shut down
    /// would fail the service group ("finished unexpectedly") when a stop follows a fast start.
    func waitUntilMigrated() async -> Bool {
        while !databaseMigrated.load(ordering: .acquiring) {
            if Task.isCancelled || Task.isShuttingDownGracefully { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return true
    }
}

/// Marks the instance draining as soon as a graceful shutdown begins, before the HTTP server
/// stops taking requests, so a load balancer's readiness check sees it go.
public struct DrainNotice: Service, CustomStringConvertible {
    let readiness: Readiness

    public init(readiness: Readiness) {
        self.readiness = readiness
    }

    public func run() async throws {
        try? await gracefulShutdown()
        readiness.drain()
    }

    public var description: String { "DrainNotice" }
}
