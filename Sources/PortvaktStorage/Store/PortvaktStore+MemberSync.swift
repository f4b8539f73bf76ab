import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// The organisation's sync log, newest first; optionally one outcome or status.
    public func memberSyncEntries(
        organisationID: String, outcome: MemberSyncOutcome? = nil, status: String? = nil, limit: Int = 500
    ) async throws -> [MemberSyncEntry] {
        try await read { db in
            var query = db.select().column("*").from("member_sync_log").where("organisation_id", .equal, organisationID)
            if let outcome { query = query.where("outcome", .equal, outcome.rawValue) }
            if let status { query = query.where("status", .equal, status) }
            return try await query.orderBy("occurred_at", .descending).orderBy("id").limit(limit).all(as: MemberSyncEntry.self)
        }
    }

    public func memberSyncEntry(id: String) async throws -> MemberSyncEntry? {
        try await read { db in
            try await db.select().column("*").from("member_sync_log").where("id", .equal, id).first(as: MemberSyncEntry.self)
        }
    }

    /// The user's `absent` entries not shown yet; marks them shown, so each is told once.
    public func takeAbsentNotices(userID: String, now: Date = Date()) async throws -> [MemberSyncEntry] {
        // Nearly always there is none: a read first keeps `GET /v1/me` off the write lock.
        let pending = try await read { db in
            try await db.select().column("id").from("member_sync_log")
                .where("user_id", .equal, userID).where("outcome", .equal, MemberSyncOutcome.absent.rawValue)
                .where("notified_at", .is, SQLLiteral.null).first()
        }
        guard pending != nil else { return [] }
        return try await write { db in
            try await db.update("member_sync_log").set("notified_at", to: now.millisecondsSince1970)
                .where("user_id", .equal, userID).where("outcome", .equal, MemberSyncOutcome.absent.rawValue)
                .where("notified_at", .is, SQLLiteral.null)
                .returning(SQLLiteral.all).all(as: MemberSyncEntry.self)
        }
    }

    /// Records sync entries and audit events that change no record (a login refused a link), in
    /// one transaction.
    public func recordMemberSync(_ writes: MemberSyncWrites, now: Date = Date()) async throws {
        try await write { db in try await writes.apply(in: db, auditKeys: auditKeys, now: now) }
    }

    /// Ends `holderID`'s memberships resting on the record (an account left with none loses every
    /// way in, as an ending does), with `writes`, in one transaction.
    /// - Returns: what it did to the account; nil when the account no longer held the record
    ///   (then nothing is written).
    @discardableResult
    public func detachMemberRecord(id recordID: String, from holderID: String, reason: String, writes: MemberSyncWrites, now: Date = Date()) async throws -> EndedAccess? {
        try await write { db in
            guard let ended = try await Self.detach([(holderID, recordID)], reason: reason, at: now.millisecondsSince1970, in: db).first else { return nil }
            try await writes.apply(in: db, auditKeys: auditKeys, now: now)
            return ended
        }
    }

    /// Resolves an open conflict, with the writes the decision brings (the record's new number,
    /// an outbox message, audit events) in the same transaction.
    /// - Returns: false when the entry is not an open conflict (resolved already, or unknown).
    public func resolveConflict(
        entryID: String, resolution: String, by userID: String, writes: MemberSyncWrites, now: Date = Date()
    ) async throws -> Bool {
        try await write { db in
            let resolved = try await db.update("member_sync_log")
                .set("status", to: "resolved").set("resolved_at", to: now.millisecondsSince1970)
                .set("resolved_by", to: userID).set("resolution", to: resolution)
                .where("id", .equal, entryID).where("status", .equal, "open")
                .returning("id").first() != nil
            guard resolved else { return false }
            // Taking the login's number replaces the member's: clear it first, so the update applies.
            for update in writes.personnummerUpdates {
                try await db.update("member_records")
                    .set("personnummer_sealed", to: SQLLiteral.null).set("personnummer_key_id", to: SQLLiteral.null)
                    .set("personnummer_index", to: SQLLiteral.null).where("id", .equal, update.recordID).run()
            }
            try await writes.apply(in: db, auditKeys: auditKeys, now: now)
            return true
        }
    }
}

extension PortvaktStore {
    /// Claims up to `limit` messages due for delivery, oldest due first, for `lease` seconds:
    /// until then no other worker (on this instance or another) takes them. Only the first
    /// undelivered message of a member is due, so a member's updates arrive in order. One
    /// statement; on PostgreSQL rows another worker is claiming are skipped, not waited for.
    public func claimDueOutboxMessages(claimID: String, lease: TimeInterval, limit: Int, now: Date = Date()) async throws -> [OutboxMessage] {
        let time = now.millisecondsSince1970
        return try await write { db in
            let (materialized, skipLocked) = Self.claimClauses(db)
            return try await db.raw("""
                WITH picked AS \(materialized) (
                    SELECT due.id FROM member_outbox due
                    WHERE due.status = 'pending' AND due.next_attempt_at <= \(bind: time)
                    AND NOT EXISTS (
                        SELECT 1 FROM member_outbox earlier
                        WHERE earlier.member_record_id = due.member_record_id AND earlier.status = 'pending'
                        AND (earlier.created_at < due.created_at OR (earlier.created_at = due.created_at AND earlier.id < due.id))
                    )
                    ORDER BY due.next_attempt_at LIMIT \(bind: limit) \(skipLocked)
                )
                UPDATE member_outbox SET next_attempt_at = \(bind: time + Int64(lease * 1000)), claim_id = \(bind: claimID)
                WHERE id IN (SELECT id FROM picked)
                RETURNING *
                """).all(as: OutboxMessage.self)
        }
    }

    /// How an outbox claim picks its rows: on PostgreSQL once (`MATERIALIZED`; a `LIMIT` subquery
    /// inside `IN` may be run again by the planner and claim more than the limit) and skipping
    /// rows another worker holds; SQLite has one writer.
    static func claimClauses(_ db: any SQLDatabase) -> (materialized: SQLQueryString, skipLocked: SQLQueryString) {
        db.dialect.name == "postgresql" ? ("MATERIALIZED", "FOR UPDATE OF due SKIP LOCKED") : ("", "")
    }

    /// Records a delivery under `claimID`.
    /// - Returns: false when the claim was no longer current (the lease ran out and another
    ///   worker took the message): nothing is changed.
    @discardableResult
    public func markOutboxDelivered(id: String, claimID: String, now: Date = Date()) async throws -> Bool {
        try await write { db in
            try await db.update("member_outbox").set("status", to: OutboxStatus.delivered.rawValue).set("delivered_at", to: now.millisecondsSince1970)
                .set("attempts", to: SQLRaw("attempts + 1")).set("last_error", to: SQLLiteral.null).set("claim_id", to: SQLLiteral.null)
                .where("id", .equal, id).where("claim_id", .equal, claimID).where("status", .equal, OutboxStatus.pending.rawValue)
                .returning("id").first() != nil
        }
    }

    /// Records a failed attempt under `claimID`: retried at `nextAttempt`, or `dead` when nil.
    /// - Returns: false when the claim was no longer current: nothing is changed.
    @discardableResult
    public func markOutboxFailed(id: String, claimID: String, error: String, nextAttempt: Date?, now: Date = Date()) async throws -> Bool {
        try await write { db in
            var update = db.update("member_outbox").set("attempts", to: SQLRaw("attempts + 1"))
                .set("last_error", to: String(error.prefix(200))).set("claim_id", to: SQLLiteral.null)
            if let nextAttempt {
                update = update.set("next_attempt_at", to: nextAttempt.millisecondsSince1970)
            } else {
                update = update.set("status", to: OutboxStatus.dead.rawValue)
            }
            return try await update.where("id", .equal, id).where("claim_id", .equal, claimID).where("status", .equal, OutboxStatus.pending.rawValue)
                .returning("id").first() != nil
        }
    }

    public func outboxMessages(organisationID: String, status: String? = nil) async throws -> [OutboxMessage] {
        try await read { db in
            var query = db.select().column("*").from("member_outbox").where("organisation_id", .equal, organisationID)
            if let status { query = query.where("status", .equal, status) }
            return try await query.orderBy("created_at", .descending).limit(500).all(as: OutboxMessage.self)
        }
    }
}

extension PortvaktStore {
    /// How many messages wait for delivery and how many are dead, over every organisation.
    public func outboxCounts() async throws -> (pending: Int, dead: Int) {
        try await read { db in
            let rows = try await db.select().column("status").column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count")
                .from("member_outbox").where("status", .in, [OutboxStatus.pending.rawValue, OutboxStatus.dead.rawValue]).groupBy("status").all()
            var counts: [String: Int] = [:]
            for row in rows { counts[try row.decode(column: "status", as: String.self)] = try row.decode(column: "count", as: Int.self) }
            return (counts[OutboxStatus.pending.rawValue] ?? 0, counts[OutboxStatus.dead.rawValue] ?? 0)
        }
    }
}

extension MemberSyncWrites {
    func apply(in db: any SQLDatabase, auditKeys: AuditKeyRing, now: Date) async throws {
        var unchanged = Set<String>()
        for update in personnummerUpdates {
            // Only an empty record is filled: a concurrent write that got there first is kept,
            // and then its member system is not told of a number the record does not hold.
            let filled = try await db.update("member_records")
                .set("personnummer_sealed", to: update.personnummer.sealed.combined)
                .set("personnummer_key_id", to: update.personnummer.sealed.keyID)
                .set("personnummer_index", to: update.personnummer.index)
                .set("updated_at", to: now.millisecondsSince1970)
                .where("id", .equal, update.recordID).where("personnummer_index", .is, SQLLiteral.null)
                .returning("id").first() != nil
            if !filled { unchanged.insert(update.recordID) }
        }
        for entry in entries { try await db.insert(into: "member_sync_log").row(entry).run() }
        for message in outbox where !(message.memberRecordId.map(unchanged.contains) ?? false) {
            try await db.insert(into: "member_outbox").row(message).run()
        }
        for event in audit { try await PortvaktStore.append(event, in: db, keys: auditKeys) }
    }
}
