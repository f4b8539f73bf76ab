import Foundation
import SQLKit

/// An expense claim (travel, materials) a member submits to their organisation, in øre.
public struct ExpenseClaim: IdempotentRow, Hashable {
    public let id: String
    public let organisationId: String
    public let userId: String
    public let amountOre: Int64
    public let description: String
    public let idempotencyKey: String
    public let requestHash: Data
    public let createdAt: Int64

    public init(organisationID: String, userID: String, amountOre: Int64, description: String, idempotencyKey: String, requestHash: Data, now: Date) {
        id = newID()
        organisationId = organisationID
        userId = userID
        self.amountOre = amountOre
        self.description = description
        self.idempotencyKey = idempotencyKey
        self.requestHash = requestHash
        createdAt = now.millisecondsSince1970
    }
}

extension PortvaktStore {
    /// Submits a claim once per idempotency key.
    public func submitExpenseClaim(_ claim: ExpenseClaim) async throws -> IdempotentWrite<ExpenseClaim> {
        try await insertIdempotent(claim, into: "expense_claims")
    }

    /// Newest first.
    public func expenseClaims(_ scope: RowScope, limit: Int = 200) async throws -> [ExpenseClaim] {
        try await read { db in
            try await scope.apply(db.select().column("*").from("expense_claims"), userColumn: "user_id")
                .orderBy("created_at", .descending).orderBy("id").limit(limit).all(as: ExpenseClaim.self)
        }
    }
}
