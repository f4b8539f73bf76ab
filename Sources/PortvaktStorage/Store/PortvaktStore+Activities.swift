import Foundation
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// Logs an activity once per idempotency key.
    public func createActivity(_ activity: Activity) async throws -> IdempotentWrite<Activity> {
        try await insertIdempotent(activity, into: "activities")
    }

    /// Newest first, at most `limit`.
    public func activities(_ scope: RowScope, limit: Int = 200) async throws -> [Activity] {
        try await read { db in
            try await scope.apply(db.select().column("*").from("activities"), userColumn: "user_id")
                .orderBy("occurred_at", .descending).orderBy("id").limit(limit).all(as: Activity.self)
        }
    }

    public func activityCount(userID: String) async throws -> Int {
        try await read { db in
            try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("activities")
                .where("user_id", .equal, userID).first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }
}
