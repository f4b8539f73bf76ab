import Foundation
import SQLKit

/// A row written under the caller's `Idempotency-Key`: unique per user, with a hash of the
/// request it first came with.
public protocol IdempotentRow: Codable, Sendable {
    var userId: String { get }
    var idempotencyKey: String { get }
    var requestHash: Data { get }
}

/// What writing under an idempotency key did.
public enum IdempotentWrite<Row: Sendable>: Sendable {
    /// The row is new.
    case created(Row)
    /// The key was used before with the same request: this is the row it made, and nothing new was written.
    case replayed(Row)
    /// The key was used before with a different request.
    case keyReused
}

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

/// Which rows of an organisation a caller may see: everyone's, or only their own.
public enum RowScope: Sendable, Hashable {
    case organisation(String)
    case own(userID: String, organisationID: String)

    func apply(_ query: SQLSelectBuilder, userColumn: String) -> SQLSelectBuilder {
        switch self {
        case .organisation(let id):
            query.where("organisation_id", .equal, id)
        case .own(let userID, let organisationID):
            query.where("organisation_id", .equal, organisationID).where(SQLIdentifier(userColumn), .equal, SQLBind(userID))
        }
    }
}
