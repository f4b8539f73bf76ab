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

    public init() {}

    public var state: State { current.withLock { $0 } }

    func migrated() {
        current.withLock { if $0 == .starting { $0 = .ready } }
    }

    func drain() {
        current.withLock { $0 = .draining }
    }

    /// Waits until the database is migrated; false when the instance stops first.
    func waitUntilMigrated() async -> Bool {
        while state == .starting {
            if Task.isCancelled || Task.isShuttingDownGracefully { return false }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return state == .ready
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
