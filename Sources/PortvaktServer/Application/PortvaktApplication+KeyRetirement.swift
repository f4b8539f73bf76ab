import Logging
import PortvaktCore
import PortvaktStorage

extension PortvaktApplication {
    /// What `rotate-encryption-key` did to one sealed column.
    public struct ResealReport: Sendable {
        public let column: String
        public let resealed: Int
        /// Values still under an older key when the report was made.
        public let remaining: Int
    }

    /// Re-seals every sealed value (``SealedColumn/all``) under the first key of
    /// `PORTVAKT_ENCRYPTION_KEYS`, `batchSize` rows per transaction, calling `progress` after
    /// each batch; then counts every column again, and is done only when no value anywhere is
    /// under an older key. Interrupted, it goes on where it stopped when run again.
    /// - Throws: ``ResealError`` when a value opens under no configured key, or when values are
    ///   still sealed under an older key at the end (an instance still runs with it first).
    public static func rotateEncryptionKey(
        configuration: ServerConfiguration, logger: Logger, batchSize: Int = 500,
        progress: @escaping @Sendable (ResealReport) -> Void = { _ in }
    ) async throws -> [ResealReport] {
        try await withStore(configuration: configuration, logger: logger) { store, keys in
            var reports: [ResealReport] = []
            for column in SealedColumn.all {
                let total = try await store.sealedUnderOlderKeys(column, cipher: keys.cipher)
                var resealed = 0
                var cursor: ResealCursor?
                repeat {
                    let batch = try await store.reseal(column, cipher: keys.cipher, after: cursor, limit: batchSize)
                    resealed += batch.resealed
                    cursor = batch.after
                    if cursor != nil { progress(ResealReport(column: column.name, resealed: resealed, remaining: max(0, total - resealed))) }
                } while cursor != nil
                reports.append(ResealReport(column: column.name, resealed: resealed, remaining: 0))
            }
            // Written meanwhile by an instance that still seals under an older key, or changed
            // under a batch: then the old key cannot go yet.
            for column in SealedColumn.all {
                let left = try await store.sealedUnderOlderKeys(column, cipher: keys.cipher)
                guard left == 0 else { throw ResealError.stillSealedUnderOlderKey(column: column.name, count: left) }
            }
            logger.notice("Every sealed value is under the newest encryption key", metadata: ["key": "\(keys.cipher.activeKeyID)"])
            return reports
        }
    }
}

extension PortvaktApplication {
    /// Why `reindex` will not run: the audit trail would stop verifying.
    public struct ReindexRefusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Recomputes every personnummer blind index (``BlindIndexColumn/all``) under the configured
    /// `PORTVAKT_INDEX_KEY`, `batchSize` rows per transaction; returns how many changed per table.
    /// The audit trail must verify with the configured keys first: without `PORTVAKT_AUDIT_KEY`
    /// its key is derived from the index key, and events sealed under the previous one would no
    /// longer verify (`portvakt-server audit derived-key`, run with the previous index key, gives
    /// the entry that keeps them verifying).
    public static func reindex(configuration: ServerConfiguration, logger: Logger, batchSize: Int = 500) async throws -> [(table: String, updated: Int)] {
        guard configuration.auditKeys != nil else {
            throw ReindexRefusal(description: "reindex needs PORTVAKT_AUDIT_KEY: without it the audit trail is sealed with a key derived from PORTVAKT_INDEX_KEY. With the previous index key, run `portvakt-server audit derived-key`; set PORTVAKT_AUDIT_KEY to a new key of its own followed by that entry (a1=…,index=…); then run reindex with the new index key")
        }
        let chain = try await verifyAuditChain(configuration: configuration, logger: logger)
        if let broken = chain.firstBroken {
            throw ReindexRefusal(description: "the audit trail does not verify with PORTVAKT_AUDIT_KEY (first broken at \(broken)): add the entry `portvakt-server audit derived-key` gives with the previous index key, then run again")
        }
        return try await withStore(configuration: configuration, logger: logger) { store, keys in
            var counts: [(table: String, updated: Int)] = []
            for column in BlindIndexColumn.all {
                var updated = 0
                var cursor: String?
                repeat {
                    let batch = try await store.reindex(column, vault: keys.vault, after: cursor, limit: batchSize)
                    updated += batch.updated
                    cursor = batch.last
                } while cursor != nil
                counts.append((column.table, updated))
            }
            logger.notice("Every personnummer blind index is under the configured index key")
            return counts
        }
    }

    /// The `PORTVAKT_AUDIT_KEY` entry of the audit key derived from the configured index key.
    public static func derivedAuditKeyEntry(configuration: ServerConfiguration, logger: Logger) throws -> String {
        try DataProtectionKeys.load(for: configuration, logger: logger).derivedAuditKeyEntry
    }
}
