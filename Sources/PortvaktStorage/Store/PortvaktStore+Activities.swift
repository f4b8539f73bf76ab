import Foundation
import SQLKit

/// Something a peer mentor did and logs: a visit, a call, a meeting. Times are Unix milliseconds.
public struct Activity: IdempotentRow, Hashable {
    public let id: String
    public let organisationId: String
    public let userId: String
    public let kind: String
    public let occurredAt: Int64
    public let durationMinutes: Int
    public let note: String?
    public let contactId: String?
    public let idempotencyKey: String
    public let requestHash: Data
    public let createdAt: Int64

    public init(
        organisationID: String, userID: String, kind: String, occurredAt: Date, durationMinutes: Int, note: String?,
        contactID: String?, idempotencyKey: String, requestHash: Data, now: Date
    ) {
        id = newID()
        organisationId = organisationID
        userId = userID
        self.kind = kind
        self.occurredAt = occurredAt.millisecondsSince1970
        self.durationMinutes = durationMinutes
        self.note = note
        contactId = contactID
        self.idempotencyKey = idempotencyKey
        self.requestHash = requestHash
        createdAt = now.millisecondsSince1970
    }
}

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
