import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

/// The back-channel logouts waiting to be told (``LogoutNotice``), queued by version 35's trigger
/// as a session ends, and worked as the mail outbox is: claimed for a lease, delivered, recorded
/// under the claim.
extension PortvaktStore {
    public func claimDueLogouts(claimID: String, lease: TimeInterval, limit: Int, now: Date = Date()) async throws -> [LogoutNotice] {
        let time = now.millisecondsSince1970
        return try await write { db in
            let (materialized, skipLocked) = Self.claimClauses(db)
            return try await db.raw("""
                WITH picked AS \(materialized) (
                    SELECT due.id FROM logout_outbox due
                    WHERE (due.status = 'pending' AND due.next_attempt_at <= \(bind: time))
                    OR (due.status = 'sending' AND due.claimed_until <= \(bind: time))
                    ORDER BY due.next_attempt_at LIMIT \(bind: limit) \(skipLocked)
                )
                UPDATE logout_outbox SET status = 'sending', claim_id = \(bind: claimID), claimed_until = \(bind: time + Int64(lease * 1000))
                WHERE id IN (SELECT id FROM picked)
                AND ((status = 'pending' AND next_attempt_at <= \(bind: time)) OR (status = 'sending' AND claimed_until <= \(bind: time)))
                RETURNING *
                """).all(as: LogoutNotice.self)
        }
    }

    /// - Returns: false when the claim was no longer current: nothing is changed.
    @discardableResult
    public func markLogoutSent(id: String, claimID: String, now: Date = Date()) async throws -> Bool {
        try await write { db in
            try await db.update("logout_outbox").set("status", to: "sent").set("sent_at", to: now.millisecondsSince1970)
                .set("attempts", to: SQLRaw("attempts + 1")).set("last_error", to: SQLLiteral.null)
                .set("claim_id", to: SQLLiteral.null).set("claimed_until", to: SQLLiteral.null)
                .where("id", .equal, id).where("claim_id", .equal, claimID).where("status", .equal, "sending")
                .returning("id").first() != nil
        }
    }

    /// Records a failed attempt: retried at `nextAttempt`, or `dead` when nil.
    /// - Returns: false when the claim was no longer current: nothing is changed.
    @discardableResult
    public func markLogoutFailed(id: String, claimID: String, error: String, nextAttempt: Date?, now: Date = Date()) async throws -> Bool {
        try await write { db in
            var update = db.update("logout_outbox").set("attempts", to: SQLRaw("attempts + 1"))
                .set("last_error", to: String(error.prefix(200))).set("claim_id", to: SQLLiteral.null).set("claimed_until", to: SQLLiteral.null)
            if let nextAttempt {
                update = update.set("status", to: "pending").set("next_attempt_at", to: nextAttempt.millisecondsSince1970)
            } else {
                update = update.set("status", to: "dead")
            }
            return try await update.where("id", .equal, id).where("claim_id", .equal, claimID).where("status", .equal, "sending")
                .returning("id").first() != nil
        }
    }

    /// Deletes logouts created before `cutoff` that no worker is sending; returns how many.
    @discardableResult
    public func purgeLogouts(before cutoff: Date) async throws -> Int {
        try await write { db in
            try await db.delete(from: "logout_outbox").where("created_at", .lessThan, cutoff.millisecondsSince1970)
                .where("status", .notEqual, "sending").returning("id").all().count
        }
    }
}
