import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

/// Which index key the database's blind indexes are under (``IndexKeyStateMigration``).
public struct IndexKeyState: Sendable, Equatable {
    public let fingerprint: String
    /// The key `reindex` is moving them to; nil when none is under way.
    public let reindexingTo: String?
    /// When the key last changed; nil if it never has.
    public let reindexedAt: Int64?
}

/// A table whose rows hold a personnummer sealed beside its blind index, which `reindex`
/// recomputes from the sealed digits.
public struct BlindIndexTable: Sendable {
    public let table: String
    let record: @Sendable (_ id: String) -> String
    /// Users: a BankID app login's identity (`nnin:` and the index) moves with the index.
    let carriesIdentities: Bool

    public static let all: [BlindIndexTable] = [
        BlindIndexTable(table: "users", record: { User.personnummerRecord(userID: $0) }, carriesIdentities: true),
        BlindIndexTable(table: "member_records", record: { MemberRecord.personnummerContext(recordID: $0) }, carriesIdentities: false),
    ]
}

extension PortvaktStore {
    /// The state, recording `fingerprint` as the key in use when nothing is recorded yet (a new
    /// database, or the first start after the upgrade that introduced it).
    public func indexKeyState(recordingIfFirst fingerprint: String) async throws -> IndexKeyState {
        try await write { db in
            try await db.insert(into: "index_key_state").columns("id", "fingerprint").values(SQLBind(1), SQLBind(fingerprint))
                .ignoringConflicts(with: ["id"]).run()
            return try await Self.indexKeyState(in: db)
        }
    }

    /// The state; nil while the database records no key (see ``indexKeyState(recordingIfFirst:)``).
    public func indexKeyState() async throws -> IndexKeyState? {
        try await read { db in try await Self.recordedIndexKeyState(in: db) }
    }

    /// Marks a reindex to `fingerprint` as under way, unless every index is already under it
    /// and none is under way, or one to another key is under way and not `takingOver` (the state
    /// as it is, unchanged, then). Instances see it and stop (see `IndexKeyGuard`).
    public func beginReindex(to fingerprint: String, takingOver: Bool) async throws -> (begun: Bool, state: IndexKeyState) {
        try await write { db in
            var update = db.update("index_key_state").set("reindexing_to", to: fingerprint)
                .where("id", .equal, 1)
                .where { $0.where("fingerprint", .notEqual, fingerprint).orWhere("reindexing_to", .isNot, SQLLiteral.null) }
            if !takingOver {
                update = update.where { $0.where("reindexing_to", .is, SQLLiteral.null).orWhere("reindexing_to", .equal, fingerprint) }
            }
            let begun = try await !update.returning("id").all().isEmpty
            return (begun, try await Self.indexKeyState(in: db))
        }
    }

    /// Whether `vault`'s index key made the stored indexes: up to `sample` numbers of each table
    /// recomputed; nil when no number is indexed yet. For a database that records no key yet.
    public func indexesMatch(_ vault: PersonnummerVault, sample: Int = 20) async throws -> Bool? {
        try await read { db in
            var checked = 0
            for table in BlindIndexTable.all {
                let rows = try await db.select().column("id").column("personnummer_sealed").column("personnummer_key_id").column("personnummer_index")
                    .from(table.table).where("personnummer_sealed", .isNot, SQLLiteral.null).where("personnummer_index", .isNot, SQLLiteral.null)
                    .orderBy("id").limit(sample).all()
                for row in rows {
                    let id = try row.decode(column: "id", as: String.self)
                    let sealed = SealedValue(
                        keyID: try row.decode(column: "personnummer_key_id", as: String.self), combined: try row.decode(column: "personnummer_sealed", as: Data.self)
                    )
                    guard vault.blindIndex(try vault.open(sealed, record: table.record(id))) == (try row.decode(column: "personnummer_index", as: String.self)) else { return false }
                    checked += 1
                }
            }
            return checked == 0 ? nil : true
        }
    }

    /// BankID app logins whose `nnin:` subject is no account's index (left by a merge of two
    /// numbered accounts): they are made again at the person's next login.
    public func strayBankIDAppIdentities() async throws -> Int {
        try await read { db in
            try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count").from("identities")
                .where("provider", .equal, "bankid").where("subject", .like, "nnin:%")
                .where(SQLRaw("NOT EXISTS (SELECT 1 FROM users WHERE users.id = identities.user_id AND identities.subject = 'nnin:' || users.personnummer_index)"))
                .first()?.decode(column: "count", as: Int.self) ?? 0
        }
    }

    /// Records `fingerprint` as the key in use once the reindex to it is done, and forgets the
    /// login throttles (HMACs under the old key, which may have leaked); false if another reindex
    /// (to another key) took over meanwhile.
    public func finishReindex(to fingerprint: String, now: Date) async throws -> Bool {
        try await write { db in
            let finished = try await !db.update("index_key_state")
                .set("fingerprint", to: fingerprint).set("reindexing_to", to: SQLLiteral.null).set("reindexed_at", to: now.millisecondsSince1970)
                .where("id", .equal, 1).where("reindexing_to", .equal, fingerprint)
                .returning("id").all().isEmpty
            if finished { try await db.delete(from: "login_throttles").run() }
            return finished
        }
    }

    /// One batch of ``reindex(_:vault:to:after:limit:)``.
    public struct ReindexBatch: Sendable {
        public var updated = 0
        /// Rows whose number changed since they were read: the next pass takes them.
        public var skipped = 0
        /// The last id read; nil when the table is done.
        public var last: String?
        /// Another reindex took over (`--take-over`): this one must stop.
        public var takenOver = false
    }

    /// Recomputes the blind index of up to `limit` rows of `table` after `cursor` (in id order)
    /// under `vault`'s index key (`fingerprint`), and for a user the `nnin:` subject of their
    /// BankID app login in the same transaction; a row already right is left alone, so a second
    /// run only finishes. Does nothing once another reindex has taken over.
    public func reindex(_ table: BlindIndexTable, vault: PersonnummerVault, to fingerprint: String, after cursor: String?, limit: Int) async throws -> ReindexBatch {
        try await write { db in
            var batch = ReindexBatch()
            guard try await Self.recordedIndexKeyState(in: db)?.reindexingTo == fingerprint else {
                batch.takenOver = true
                return batch
            }
            var query = db.select().column("id").column("personnummer_sealed").column("personnummer_key_id").column("personnummer_index")
                .from(table.table).where("personnummer_sealed", .isNot, SQLLiteral.null)
            if let cursor { query = query.where("id", .greaterThan, cursor) }
            for row in try await query.orderBy("id").limit(limit).all() {
                let id = try row.decode(column: "id", as: String.self)
                batch.last = id
                let sealed = SealedValue(
                    keyID: try row.decode(column: "personnummer_key_id", as: String.self), combined: try row.decode(column: "personnummer_sealed", as: Data.self)
                )
                let index = vault.blindIndex(try vault.open(sealed, record: table.record(id)))
                let previous = try row.decode(column: "personnummer_index", as: String?.self)
                guard previous != index else { continue }
                // Unless the number changed since it was read (read committed on PostgreSQL).
                let changed = try await db.update(table.table).set("personnummer_index", to: index)
                    .where("id", .equal, id).where("personnummer_sealed", .equal, sealed.combined).returning("id").all()
                guard !changed.isEmpty else {
                    batch.skipped += 1
                    continue
                }
                if table.carriesIdentities, let previous {
                    try await db.update("identities").set("subject", to: "nnin:" + index)
                        .where("user_id", .equal, id).where("provider", .equal, "bankid").where("subject", .equal, "nnin:" + previous).run()
                }
                batch.updated += 1
            }
            return batch
        }
    }

    private static func indexKeyState(in db: any SQLDatabase) async throws -> IndexKeyState {
        guard let state = try await recordedIndexKeyState(in: db) else { throw StoreError.notFound("index_key_state") }
        return state
    }

    private static func recordedIndexKeyState(in db: any SQLDatabase) async throws -> IndexKeyState? {
        guard let row = try await db.select().columns("fingerprint", "reindexing_to", "reindexed_at").from("index_key_state").where("id", .equal, 1).first() else {
            return nil
        }
        return IndexKeyState(
            fingerprint: try row.decode(column: "fingerprint", as: String.self),
            reindexingTo: try row.decode(column: "reindexing_to", as: String?.self),
            reindexedAt: try row.decode(column: "reindexed_at", as: Int64?.self)
        )
    }
}
