import Foundation
import PortvaktCore
import SQLKit

/// What a BankID or Vipps login did to one member record's personnummer.
public enum MemberSyncOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// The record had none; it has the login's now.
    case updated
    /// The record has the same number; nothing written ("confirmed, no change").
    case confirmed
    /// The record has another number; nothing overwritten, an administrator decides.
    case conflict
    /// The provider gave none (Vipps `nin` not approved); the user is told once.
    case absent
    /// The provider's number failed validation (or is synthetic in production); refused.
    case invalid
}

/// One entry of the sync log: time, source, member and outcome, never the number. A conflict
/// keeps the login's number sealed for this entry until an administrator resolves it.
public struct MemberSyncEntry: Sendable, Hashable, Codable {
    public let id: String
    public let occurredAt: Int64
    public let organisationId: String
    public let memberRecordId: String?
    public let userId: String?
    /// `vipps-login` or `bankid-login`.
    public let source: String
    public let outcome: MemberSyncOutcome
    /// `open` or `resolved` for conflicts, nil otherwise.
    public let status: String?
    let loginPersonnummerSealed: Data?
    let loginPersonnummerKeyId: String?
    public let notifiedAt: Int64?
    public let resolvedAt: Int64?
    public let resolvedBy: String?
    /// `kept_member` or `took_login`.
    public let resolution: String?

    public init(
        id: String = UUID().uuidString.lowercased(), occurredAt: Date, organisationID: String, memberRecordID: String?, userID: String?,
        source: String, outcome: MemberSyncOutcome, loginPersonnummer: SealedValue? = nil
    ) {
        self.id = id
        self.occurredAt = occurredAt.millisecondsSince1970
        organisationId = organisationID
        memberRecordId = memberRecordID
        userId = userID
        self.source = source
        self.outcome = outcome
        status = outcome == .conflict ? "open" : nil
        loginPersonnummerSealed = loginPersonnummer?.combined
        loginPersonnummerKeyId = loginPersonnummer?.keyID
        notifiedAt = nil
        resolvedAt = nil
        resolvedBy = nil
        resolution = nil
    }

    /// The login's number of a conflict, sealed for this entry (`PersonnummerVault` record name).
    public var loginPersonnummer: SealedValue? {
        guard let loginPersonnummerSealed, let loginPersonnummerKeyId else { return nil }
        return SealedValue(keyID: loginPersonnummerKeyId, combined: loginPersonnummerSealed)
    }

    public static func vaultRecord(entryID: String) -> String { "member-sync:\(entryID)" }
}

/// A message for an organisation's own member system, delivered by the outbox worker. The
/// payload (which holds the number) is sealed for the message's id.
public struct OutboxMessage: Sendable, Hashable, Codable {
    public let id: String
    public let organisationId: String
    public let memberRecordId: String?
    public let event: String
    let payloadSealed: Data
    let payloadKeyId: String
    public let status: OutboxStatus
    public let attempts: Int
    public let nextAttemptAt: Int64
    public let lastError: String?
    public let createdAt: Int64
    public let deliveredAt: Int64?
    /// The worker's claim while it is delivering the message.
    public let claimId: String?

    public init(id: String, organisationID: String, memberRecordID: String?, event: String, payload: SealedValue, now: Date) {
        self.id = id
        organisationId = organisationID
        memberRecordId = memberRecordID
        self.event = event
        payloadSealed = payload.combined
        payloadKeyId = payload.keyID
        status = .pending
        attempts = 0
        nextAttemptAt = now.millisecondsSince1970
        lastError = nil
        createdAt = now.millisecondsSince1970
        deliveredAt = nil
        claimId = nil
    }

    public var payload: SealedValue { SealedValue(keyID: payloadKeyId, combined: payloadSealed) }

    /// Whether an administrator may send it again now: it gave up, or waits and no worker holds
    /// it (``PortvaktStore/retryOutboxMessage(id:organisationID:now:)`` applies the same rule).
    public var isRetryable: Bool { status == .dead || (status == .pending && claimId == nil) }

    /// The encryption context of a message's payload.
    public static func payloadContext(messageID: String) -> String { "member-outbox:\(messageID)" }
}

/// The writes of a member sync that commit with the login (or with an administrator's decision).
public struct MemberSyncWrites: Sendable {
    /// Records that get the login's number: (record id, the number sealed for that record).
    public var personnummerUpdates: [(recordID: String, personnummer: ProtectedPersonnummer)] = []
    public var entries: [MemberSyncEntry] = []
    public var outbox: [OutboxMessage] = []
    public var audit: [AuditEvent] = []

    public init() {}

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
