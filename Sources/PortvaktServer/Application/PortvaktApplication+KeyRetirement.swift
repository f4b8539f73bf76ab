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
