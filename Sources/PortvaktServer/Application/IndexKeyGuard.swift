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
    let sealingAuditKeyID: String
    let readiness: Readiness
    let logger: Logger
    static let interval: Duration = .seconds(30)
    var every: Duration = Self.interval

    /// The recorded state. A database that records no key yet (new, or just upgraded) records
    /// `keys`' only if the stored indexes were made with it, so that the first instance or command
    /// after an upgrade cannot name the wrong key for everyone; if they were not, it refuses, or
    /// for `reindex` records `placeholder` (a key nobody has).
    static func recordedState(_ store: PortvaktStore, keys: DataProtectionKeys, recordingAnotherKeyAs placeholder: String? = nil) async throws -> IndexKeyState {
        if let state = try await store.indexKeyState() { return state }
        if try await store.indexesMatch(keys.vault) != false { return try await store.indexKeyState(recordingIfFirst: keys.indexKeyFingerprint) }
        guard let placeholder else { throw Self.otherKey }
        return try await store.indexKeyState(recordingIfFirst: placeholder)
    }

    /// What a server checks before it serves and an operator command before it runs.
    static func checkBeforeStart(_ store: PortvaktStore, keys: DataProtectionKeys) async throws {
        try check(try await recordedState(store, keys: keys), fingerprint: keys.indexKeyFingerprint, sealingAuditKeyID: keys.auditKeys.currentID)
    }

    static let otherKey = ConfigurationError("PORTVAKT_INDEX_KEY is not the key this database's personnummer indexes were made with: set that key again, or run `portvakt-server reindex` with the new one (docs/operations.md, \"Changing the index key\")")

    /// Refuses to serve or run a command with another `PORTVAKT_INDEX_KEY`, during a reindex, or,
    /// once the index key has changed, with the audit trail still sealed by a key derived from an
    /// index key (`sealingAuditKeyID` ``AuditKeyRing/derivedID``).
    static func check(_ state: IndexKeyState, fingerprint: String, sealingAuditKeyID: String) throws {
        if let target = state.reindexingTo {
            throw ConfigurationError(target == fingerprint
                ? "PORTVAKT_INDEX_KEY: the database is being reindexed to this key; let `portvakt-server reindex` finish, then start"
                : "PORTVAKT_INDEX_KEY: the database is being reindexed to another index key; finish that `portvakt-server reindex`, or run it with this key")
        }
        guard state.fingerprint == fingerprint else { throw Self.otherKey }
        guard state.reindexedAt == nil || sealingAuditKeyID != AuditKeyRing.derivedID else {
            throw ConfigurationError("PORTVAKT_AUDIT_KEY must begin with a key of its own (a1=…,index=…): the index key has changed, and events sealed with a key derived from an index key would no longer verify (docs/operations.md, \"Changing the index key\")")
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
                // An unreachable database is the readiness check's business, not a reason to stop.
                if let state = try? await store.indexKeyState() {
                    do {
                        try Self.check(state, fingerprint: fingerprint, sealingAuditKeyID: sealingAuditKeyID)
                    } catch {
                        logger.critical("Stopping: the database's personnummer indexes are moving to another index key", metadata: ["reason": "\(error)"])
                        throw error
                    }
                }
                try await Task.sleep(for: every)
            }
        }
    }
}
