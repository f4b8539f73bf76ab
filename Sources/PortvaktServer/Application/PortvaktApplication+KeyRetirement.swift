import Logging
import PortvaktCore
import PortvaktStorage

extension PortvaktApplication {
    /// What `rotate-encryption-key` did to one sealed column.
    public struct ResealReport: Sendable {
        public let column: String
        public let resealed: Int
        public let remaining: Int
    }

    /// Re-seals every sealed value (``SealedColumn/all``) under the first key of
    /// `PORTVAKT_ENCRYPTION_KEYS`, `batchSize` rows per transaction, calling `progress` after
    /// each batch. Interrupted, it goes on where it stopped when run again.
    /// - Throws: ``ResealError`` when a value opens under no configured key, or when values keep
    ///   being sealed under an older key (an instance still runs with it first).
    public static func rotateEncryptionKey(
        configuration: ServerConfiguration, logger: Logger, batchSize: Int = 500,
        progress: @escaping @Sendable (ResealReport) -> Void = { _ in }
    ) async throws -> [ResealReport] {
        try await withStore(configuration: configuration, logger: logger) { store, keys in
            var reports: [ResealReport] = []
            for column in SealedColumn.all {
                var resealed = 0
                while true {
                    let batch = try await store.reseal(column, cipher: keys.cipher, limit: batchSize)
                    resealed += batch.resealed
                    progress(ResealReport(column: column.name, resealed: resealed, remaining: batch.remaining))
                    if batch.remaining == 0 { break }
                    guard batch.resealed > 0 else { throw ResealError.stillSealedUnderOlderKey(column: column.name, count: batch.remaining) }
                }
                reports.append(ResealReport(column: column.name, resealed: resealed, remaining: 0))
            }
            return reports
        }
    }
}
