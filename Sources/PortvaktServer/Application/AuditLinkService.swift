import Logging
import PortvaktStorage
import ServiceLifecycle

/// Links audit events into the hash chain that nobody linked after their commit: left by a crash
/// of this or another instance, or by a linking that failed. At start, every few seconds, and
/// once more at shutdown, after the last requests.
struct AuditLinkService: Service {
    let store: PortvaktStore
    let readiness: Readiness
    let logger: Logger
    var interval: Duration = .seconds(10)

    func run() async throws {
        guard await readiness.waitUntilMigrated() else { return }
        await link()
        await repeatUntilShutdown(every: interval) { await link() }
        await link()
    }

    private func link() async {
        do {
            let linked = try await store.linkPendingAuditEvents()
            if linked > 0 { logger.debug("Linked audit events left unlinked", metadata: ["events": "\(linked)"]) }
        } catch {
            logger.warning("Could not link audit events", metadata: ["error": "\(error)"])
        }
    }
}

/// Service Lifecycle logs a service by its description: the name, never the settings it holds.
extension AuditLinkService: CustomStringConvertible {
    var description: String { "AuditLinkService" }
}
