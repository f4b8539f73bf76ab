import Foundation
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
    /// Why `reindex` stopped or would not begin.
    public struct ReindexRefusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// What `reindex` did to one table.
    public struct ReindexReport: Sendable {
        public let table: String
        public let updated: Int
    }

    /// Moves every personnummer blind index (``BlindIndexTable/all``), and the `nnin:` subject of
    /// each BankID app login with it, to the configured `PORTVAKT_INDEX_KEY`, `batchSize` rows
    /// per transaction, recomputed from the sealed numbers. First it marks the reindex in the
    /// database, so that instances with either key refuse to start and running ones stop, and
    /// waits `instancesStop` for them (they look every 30 s); passes until one changes nothing;
    /// at the end it records the new key and forgets the login throttles. Interrupted, it is run
    /// again. Returns nil when everything already is under the configured key.
    ///
    /// The audit trail must verify with an explicit `PORTVAKT_AUDIT_KEY` first (else a
    /// ``ConfigurationError``): without it the
    /// trail's key is derived from the index key, and the events sealed under the previous one
    /// would stop verifying (`portvakt-server audit derived-key`, with the previous index key,
    /// gives the entry that keeps them verifying).
    public static func reindex(
        configuration: ServerConfiguration, logger: Logger, batchSize: Int = 500, instancesStop: Duration = .seconds(35), takingOver: Bool = false,
        progress: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> [ReindexReport]? {
        guard configuration.auditKeys != nil else {
            throw ConfigurationError("reindex needs PORTVAKT_AUDIT_KEY: without it the audit trail is sealed with a key derived from PORTVAKT_INDEX_KEY. With the previous index key, run `portvakt-server audit derived-key`; set PORTVAKT_AUDIT_KEY to a new key of its own followed by that entry (a1=…,index=…); then run reindex with the new index key")
        }
        if let broken = try await verifyAuditChain(configuration: configuration, logger: logger).firstBroken {
            throw ConfigurationError("PORTVAKT_AUDIT_KEY: the audit trail does not verify with it (first broken at \(broken)): add the entry `portvakt-server audit derived-key` gives with the previous index key, then run again")
        }
        return try await withStore(configuration: configuration, logger: logger, checkingIndexKey: false) { store, keys in
            guard keys.auditKeys.currentID != AuditKeyRing.derivedID else {
                throw ConfigurationError("PORTVAKT_AUDIT_KEY must begin with a key of its own (a1=…,index=…): `index` is derived from an index key, the old one here")
            }
            let fingerprint = keys.indexKeyFingerprint
            // Nothing recorded yet (the first run after the upgrade): what made the indexes is told by them.
            _ = try await IndexKeyGuard.recordedState(store, keys: keys, recordingAnotherKeyAs: "unrecorded")
            let (begun, state) = try await store.beginReindex(to: fingerprint, takingOver: takingOver)
            guard begun else {
                if state.reindexingTo != nil, state.reindexingTo != fingerprint {
                    throw ReindexRefusal(description: "a reindex to another PORTVAKT_INDEX_KEY is unfinished: finish it with that key, or take it over with --take-over")
                }
                return nil
            }
            if instancesStop > .zero {
                progress("Waiting \(instancesStop.components.seconds) s for running instances to stop (each checks every \(IndexKeyGuard.interval.components.seconds) s)…")
                try await Task.sleep(for: instancesStop)
            }
            var reports: [ReindexReport] = []
            // Passes until one changes nothing: a row written under the old key by an instance
            // that had not stopped yet is caught by the next.
            for pass in 1...5 {
                var changed = 0
                for table in BlindIndexTable.all {
                    var updated = 0
                    var cursor: String?
                    repeat {
                        let batch = try await store.reindex(table, vault: keys.vault, to: fingerprint, after: cursor, limit: batchSize)
                        guard !batch.takenOver else {
                            throw ReindexRefusal(description: "another reindex took this one over (--take-over): this one stopped")
                        }
                        updated += batch.updated
                        changed += batch.updated + batch.skipped
                        cursor = batch.last
                        if cursor != nil, updated > 0 { progress("\(table.table): \(updated) recomputed so far") }
                    } while cursor != nil
                    if pass == 1 { reports.append(ReindexReport(table: table.table, updated: updated)) }
                }
                if changed == 0 { break }
                guard pass < 5 else { throw ReindexRefusal(description: "indexes kept changing under the old key: an instance with it still runs; stop it and run reindex again") }
            }
            let strays = try await store.strayBankIDAppIdentities()
            if strays > 0 { progress("\(strays) BankID app logins name no account's number (left by merged accounts); each is made again at its next login") }
            guard try await store.finishReindex(to: fingerprint, now: Date()) else {
                throw ReindexRefusal(description: "another reindex, to a different PORTVAKT_INDEX_KEY, took over while this one ran: run reindex again with the key you mean to keep")
            }
            logger.notice("Every personnummer blind index is under the configured index key")
            return reports
        }
    }

    /// The `PORTVAKT_AUDIT_KEY` entry of the audit key derived from the configured index key.
    public static func derivedAuditKeyEntry(configuration: ServerConfiguration, logger: Logger) throws -> String {
        try DataProtectionKeys.load(for: configuration, logger: logger).derivedAuditKeyEntry
    }
}
