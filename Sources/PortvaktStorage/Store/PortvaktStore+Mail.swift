import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// Queues messages for delivery, committed together.
    public func enqueueMail(_ messages: [MailOutboxMessage]) async throws {
        try await write { db in
            for message in messages { try await Self.insertMail(message, in: db) }
        }
    }

    /// Queues a message inside a store method's own transaction, so it commits with the change
    /// it tells of.
    static func insertMail(_ message: MailOutboxMessage, in db: any SQLDatabase) async throws {
        try await db.insert(into: "mail_outbox").row(message).run()
    }

    /// Claims up to `limit` messages due for sending, for `lease` seconds: until then no other
    /// worker (on this instance or another) takes them. A claim whose lease ran out (its worker
    /// died) is due again. One statement; on PostgreSQL rows another worker is claiming are
    /// skipped, not waited for.
    public func claimDueMail(claimID: String, lease: TimeInterval, limit: Int, now: Date = Date()) async throws -> [MailOutboxMessage] {
        let time = now.millisecondsSince1970
        return try await write { db in
            let (materialized, skipLocked) = Self.claimClauses(db)
            // The condition is repeated outside: on PostgreSQL a row claimed and committed by
            // another worker after this statement began is checked again in its new state.
            return try await db.raw("""
                WITH picked AS \(materialized) (
                    SELECT due.id FROM mail_outbox due
                    WHERE (due.status = 'pending' AND due.next_attempt_at <= \(bind: time))
                    OR (due.status = 'sending' AND due.claimed_until <= \(bind: time))
                    ORDER BY due.next_attempt_at LIMIT \(bind: limit) \(skipLocked)
                )
                UPDATE mail_outbox SET status = 'sending', claim_id = \(bind: claimID), claimed_until = \(bind: time + Int64(lease * 1000))
                WHERE id IN (SELECT id FROM picked)
                AND ((status = 'pending' AND next_attempt_at <= \(bind: time)) OR (status = 'sending' AND claimed_until <= \(bind: time)))
                RETURNING *
                """).all(as: MailOutboxMessage.self)
        }
    }

    /// Records a message as sent under `claimID`, and purges its body unless `keepBody` (the
    /// development sandbox's mailbox shows what it "sent").
    /// - Returns: false when the claim was no longer current: nothing is changed.
    @discardableResult
    public func markMailSent(id: String, claimID: String, keepBody: Bool = false, now: Date = Date()) async throws -> Bool {
        try await write { db in
            var update = db.update("mail_outbox").set("status", to: MailStatus.sent.rawValue).set("sent_at", to: now.millisecondsSince1970)
                .set("attempts", to: SQLRaw("attempts + 1")).set("last_error", to: SQLLiteral.null)
                .set("claim_id", to: SQLLiteral.null).set("claimed_until", to: SQLLiteral.null)
            if !keepBody { update = update.set("body_sealed", to: SQLLiteral.null).set("body_key_id", to: SQLLiteral.null) }
            return try await update.where("id", .equal, id).where("claim_id", .equal, claimID).where("status", .equal, MailStatus.sending.rawValue)
                .returning("id").first() != nil
        }
    }

    /// Records a failed attempt under `claimID`: retried at `nextAttempt`, or `dead` (and its
    /// body purged) when nil.
    /// - Returns: false when the claim was no longer current: nothing is changed.
    @discardableResult
    public func markMailFailed(id: String, claimID: String, error: String, nextAttempt: Date?, now: Date = Date()) async throws -> Bool {
        try await write { db in
            var update = db.update("mail_outbox").set("attempts", to: SQLRaw("attempts + 1"))
                .set("last_error", to: String(error.prefix(200))).set("claim_id", to: SQLLiteral.null).set("claimed_until", to: SQLLiteral.null)
            if let nextAttempt {
                update = update.set("status", to: MailStatus.pending.rawValue).set("next_attempt_at", to: nextAttempt.millisecondsSince1970)
            } else {
                update = update.set("status", to: MailStatus.dead.rawValue).set("body_sealed", to: SQLLiteral.null).set("body_key_id", to: SQLLiteral.null)
            }
            return try await update.where("id", .equal, id).where("claim_id", .equal, claimID).where("status", .equal, MailStatus.sending.rawValue)
                .returning("id").first() != nil
        }
    }

    /// Deletes messages created before `cutoff` that no worker is sending (PRIVACY.md's retention:
    /// recipient and subject; a sent message's body is gone already). Returns how many.
    @discardableResult
    public func purgeMail(before cutoff: Date) async throws -> Int {
        try await write { db in
            try await db.delete(from: "mail_outbox").where("created_at", .lessThan, cutoff.millisecondsSince1970)
                .where("status", .notEqual, MailStatus.sending.rawValue).returning("id").all().count
        }
    }

    /// The newest messages first, whatever their status (the sandbox's mailbox page).
    public func recentMail(limit: Int = 50) async throws -> [MailOutboxMessage] {
        try await read { db in
            try await db.select().column("*").from("mail_outbox")
                .orderBy("created_at", .descending).orderBy("id", .descending).limit(limit).all(as: MailOutboxMessage.self)
        }
    }

    public func mailMessage(id: String) async throws -> MailOutboxMessage? {
        try await read { db in
            try await db.select().column("*").from("mail_outbox").where("id", .equal, id).first(as: MailOutboxMessage.self)
        }
    }
}

extension PortvaktStore {
    public func mailOutboxCounts() async throws -> MailOutboxCounts {
        try await read { db in
            let retried = SQLRaw("CASE WHEN attempts > 0 THEN 1 ELSE 0 END")
            let rows = try await db.select().column("status").column(retried, as: "retried").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count")
                .from("mail_outbox").where("status", .in, [MailStatus.pending.rawValue, MailStatus.sending.rawValue, MailStatus.dead.rawValue])
                .groupBy("status").groupBy(retried).all()
            var counts = MailOutboxCounts()
            for row in rows {
                let count = try row.decode(column: "count", as: Int.self)
                switch (try row.decode(column: "status", as: String.self), try row.decode(column: "retried", as: Int.self)) {
                case (MailStatus.dead.rawValue, _): counts.gaveUp += count
                case (_, 0): counts.waiting += count
                default: counts.retrying += count
                }
            }
            return counts
        }
    }
}
