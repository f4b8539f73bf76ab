import Logging
@testable import PortvaktServer
import PortvaktTestSupport
import ServiceLifecycle
import Testing

@Suite("Background services")
struct BackgroundServiceTests {
    /// Stands for the HTTP server finishing its last requests while the instance already drains.
    private struct SlowToStop: Service {
        func run() async throws {
            try? await gracefulShutdown()
            try? await Task.sleep(for: .milliseconds(300))
        }
    }

    @Test("A stop right after a fast start ends every background service in its turn, not as \"finished unexpectedly\"")
    func stopRightAfterStart() async throws {
        try await TestDatabase.withStore(.sqlite) { store in
            let readiness = Readiness()
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let services: [any Service] = [
                AuditLinkService(store: store, readiness: readiness, logger: logger),
                ExpiryPurgeService(store: store, readiness: readiness, logger: logger),
                SlowToStop(),
                DrainNotice(readiness: readiness),
            ]
            let group = ServiceGroup(configuration: .init(services: services, logger: logger))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                // The services are waiting for the migrations; they finish, and the instance drains
                // before the services look again, while they still wait for their turn to stop.
                try await Task.sleep(for: .milliseconds(20))
                readiness.migrated()
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            #expect(readiness.state == .draining)
        }
    }
}
