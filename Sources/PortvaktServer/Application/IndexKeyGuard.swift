import Foundation
import Logging
import PortvaktCore
import PortvaktStorage
import ServiceLifecycle

/// Keeps every instance on the index key the database's blind indexes are under (issue 46 item
/// 5): an instance with another key would not find anyone by personnummer and would file new
/// numbers under indexes nobody else finds. At start it refuses; while running it stops within
/// ``interval`` of `reindex` beginning, so that no instance writes under the old key meanwhile.
struct IndexKeyGuard: Service {
    let store: PortvaktStore
    let fingerprint: String
    let readiness: Readiness
    let logger: Logger
    static let interval: Duration = .seconds(30)
    var every: Duration = Self.interval

    /// Why an instance may not serve with its `PORTVAKT_INDEX_KEY` (and `PORTVAKT_AUDIT_KEY`).
    static func check(_ state: IndexKeyState, fingerprint: String, auditKeyConfigured: Bool) throws(ConfigurationError) {
        if let target = state.reindexingTo {
            throw ConfigurationError(target == fingerprint
                ? "PORTVAKT_INDEX_KEY: the database is being reindexed to this key; let `portvakt-server reindex` finish, then start"
                : "PORTVAKT_INDEX_KEY: the database is being reindexed to another index key; finish that `portvakt-server reindex`, or run it with this key")
        }
        guard state.fingerprint == fingerprint else {
            throw ConfigurationError("PORTVAKT_INDEX_KEY is not the key this database's personnummer indexes were made with: set that key again, or run `portvakt-server reindex` with the new one (README, \"Changing the index key\")")
        }
        guard state.reindexedAt == nil || auditKeyConfigured else {
            throw ConfigurationError("PORTVAKT_AUDIT_KEY is required: the index key has changed, and the audit events sealed before it verify only with the key derived from the previous one (README, \"Changing the index key\")")
        }
    }

    func run() async throws {
        guard await readiness.waitUntilMigrated() else { return }
        do {
            try await watch()
        } catch is CancellationError {
            // The server's graceful shutdown.
        }
    }

    private func watch() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: every)
                // An unreachable database is the readiness check's business, not a reason to stop.
                guard let state = try? await store.indexKeyState() else { continue }
                do {
                    try Self.check(state, fingerprint: fingerprint, auditKeyConfigured: true)
                } catch {
                    logger.critical("Stopping: the database's personnummer indexes are moving to another index key", metadata: ["reason": "\(error)"])
                    throw error
                }
            }
        }
    }
}
