import SQLKit

/// Version 32: which `PORTVAKT_INDEX_KEY` the personnummer blind indexes (and the BankID app
/// logins' `nnin:` subjects) were made with, as a fingerprint, so that an instance with another
/// key refuses to start, and a running one stops, instead of failing to find people (issue 46
/// item 5). `reindexing_to` is set while `reindex` moves them to a new key; `reindexed_at` says
/// the key has changed once, after which the audit trail needs its own `PORTVAKT_AUDIT_KEY`.
enum IndexKeyStateMigration {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(table: "index_key_state")
            .column("id", type: .bigint, .primaryKey(autoIncrement: false))
            .column("fingerprint", type: .text, .notNull)
            .column("reindexing_to", type: .text)
            .column("reindexed_at", type: .bigint)
            .check(SQLRaw("id = 1"), named: "index_key_state_one_row")
            .run()
    }
}
