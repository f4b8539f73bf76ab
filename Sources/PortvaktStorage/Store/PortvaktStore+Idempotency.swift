import Foundation
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// Inserts `row` unless its user has used its key already. Concurrent replays are settled by
    /// the unique (user, key) index: one insert wins, the others find its row.
    func insertIdempotent<Row: IdempotentRow>(_ row: Row, into table: String) async throws -> IdempotentWrite<Row> {
        try await write { db in
            let inserted = try await db.insert(into: table).row(row)
                .ignoringConflicts(with: ["user_id", "idempotency_key"])
                .returning("id").first() != nil
            if inserted { return .created(row) }
            guard let first = try await db.select().column("*").from(table)
                .where("user_id", .equal, row.userId).where("idempotency_key", .equal, row.idempotencyKey)
                .first(as: Row.self)
            else { throw StoreError.notFound(table) }
            return first.requestHash == row.requestHash ? .replayed(first) : .keyReused
        }
    }
}

extension RowScope {
    func apply(_ query: SQLSelectBuilder, userColumn: String) -> SQLSelectBuilder {
        switch self {
        case .organisation(let id):
            query.where("organisation_id", .equal, id)
        case .own(let userID, let organisationID):
            query.where("organisation_id", .equal, organisationID).where(SQLIdentifier(userColumn), .equal, SQLBind(userID))
        }
    }
}
