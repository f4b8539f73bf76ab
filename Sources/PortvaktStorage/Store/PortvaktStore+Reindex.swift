import Foundation
import PortvaktCore
import SQLKit

/// The blind indexes of personnummer (``PersonnummerVault/blindIndex(_:)``): what `reindex`
/// recomputes under a new `PORTVAKT_INDEX_KEY`, from the sealed digits beside each.
public struct BlindIndexColumn: Sendable {
    public let table: String
    let record: @Sendable (_ id: String) -> String

    public static let all: [BlindIndexColumn] = [
        BlindIndexColumn(table: "users", record: { User.personnummerRecord(userID: $0) }),
        BlindIndexColumn(table: "member_records", record: { MemberRecord.personnummerContext(recordID: $0) }),
    ]
}

extension PortvaktStore {
    /// Recomputes the blind index of up to `limit` rows of `column.table` after `cursor` (in id
    /// order) under `vault`'s index key; a row whose index is already right is left alone, so
    /// running again after an interruption only finishes the job.
    /// - Returns: how many rows changed, and the last id read (nil: the table is done).
    public func reindex(_ column: BlindIndexColumn, vault: PersonnummerVault, after cursor: String?, limit: Int) async throws -> (updated: Int, last: String?) {
        try await write { db in
            var query = db.select().column("id").column("personnummer_sealed").column("personnummer_key_id").column("personnummer_index")
                .from(column.table).where("personnummer_sealed", .isNot, SQLLiteral.null)
            if let cursor { query = query.where("id", .greaterThan, cursor) }
            let rows = try await query.orderBy("id").limit(limit).all()
            var updated = 0
            var last: String?
            for row in rows {
                let id = try row.decode(column: "id", as: String.self)
                last = id
                let sealed = SealedValue(
                    keyID: try row.decode(column: "personnummer_key_id", as: String.self), combined: try row.decode(column: "personnummer_sealed", as: Data.self)
                )
                let index = vault.blindIndex(try vault.open(sealed, record: column.record(id)))
                guard try row.decode(column: "personnummer_index", as: String?.self) != index else { continue }
                try await db.update(column.table).set("personnummer_index", to: index).where("id", .equal, id).run()
                updated += 1
            }
            return (updated, last)
        }
    }
}
