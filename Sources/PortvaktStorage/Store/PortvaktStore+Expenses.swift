import Foundation
import PortvaktModels
import SQLKit

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
