import Foundation
import PortvaktCore
import Metrics
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// Appends an event to the audit trail.
    public func append(_ event: AuditEvent) async throws {
        try await write { db in try await append(event, in: db) }
    }

    /// Appends inside a caller's transaction, so the event commits with what it records.
    ///
    /// The event is written sealed but not yet linked into the hash chain: that happens right
    /// after the commit (``linkPendingAuditEvents(batchSize:)``), so concurrent transactions do
    /// not queue behind one chain head.
    public func append(_ event: AuditEvent, in db: any SQLDatabase) async throws {
        try await Self.append(event, in: db, keys: auditKeys)
    }

    static func append(_ event: AuditEvent, in db: any SQLDatabase, keys: AuditKeyRing) async throws {
        // The address goes beside the event, so the retention purge can delete it (migration 23).
        let (event, address) = event.withoutClientAddress()
        let row = try AuditRow(sealing: event, with: keys)
        try await db.insert(into: "audit_events").row(row).run()
        if let address {
            try await db.insert(into: "audit_addresses").columns("event_id", "client_address", "recorded_at")
                .values(SQLBind(row.id), SQLBind(address), SQLBind(row.occurredAt)).run()
        }
        AuditAppends.inTransaction?.record()
        countAppended(event)
    }

    static func countAppended(_ event: AuditEvent) {
        Counter(label: "portvakt_audit_events_total", dimensions: [("action", event.action)]).increment()
    }

    /// Deletes the client addresses of events older than `cutoff` (PRIVACY.md's retention); the
    /// events stay, whole and chained. Returns how many were deleted.
    @discardableResult
    public func purgeAuditAddresses(before cutoff: Date) async throws -> Int {
        try await write { db in
            try await db.delete(from: "audit_addresses").where("recorded_at", .lessThan, cutoff.millisecondsSince1970)
                .returning("event_id").all().count
        }
    }

    /// The trail of one record, oldest first.
    public func auditEvents(subjectType: String, subjectID: String) async throws -> [AuditEvent] {
        try await read { db in
            try await Self.auditRows(Self.selectAuditEvents(db)
                .where("subject_type", .equal, subjectType).where("subject_id", .equal, subjectID)
                .orderBy("occurred_at").orderBy("id")).map(\.event)
        }
    }
}

/// An audit event as stored, with its place in the hash chain.
struct AuditRow: Codable {
    var id: String
    var occurredAt: Int64
    var action: String
    var outcome: String
    var actorUserId: String?
    var organisationId: String?
    var subjectType: String?
    var subjectId: String?
    var source: String?
    var details: String
    var sequence: Int64?
    var prevHash: Data?
    var hash: Data?
    /// The audit key that sealed the event; nil for events chained before the chain had keys.
    var keyId: String?
    /// HMAC of the event as written, before it was linked (nil for events linked as they were written).
    var seal: Data?
    /// From `audit_addresses` when a read joins it (``PortvaktStore/auditRows(_:)``); never
    /// written with the row, never part of its hash or seal.
    var clientAddress: String?

    enum CodingKeys: String, CodingKey {
        case id, occurredAt, action, outcome, actorUserId, organisationId, subjectType, subjectId, source, details, sequence, prevHash, hash, keyId, seal
    }

    init(_ event: AuditEvent) throws {
        id = event.id.uuidString.lowercased()
        occurredAt = event.occurredAt.millisecondsSince1970
        action = event.action
        outcome = event.outcome
        actorUserId = event.actorUserID?.uuidString.lowercased()
        organisationId = event.organisationID?.uuidString.lowercased()
        subjectType = event.subjectType
        subjectId = event.subjectID
        source = event.source
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        details = String(decoding: try encoder.encode(event.details), as: UTF8.self)
    }

    /// The event as it is inserted: sealed with the ring's current key, not yet linked.
    init(sealing event: AuditEvent, with keys: AuditKeyRing) throws {
        try self.init(event)
        try seal(with: keys)
    }

    var event: AuditEvent {
        AuditEvent(
            id: UUID(uuidString: id) ?? UUID(), occurredAt: Date(millisecondsSince1970: occurredAt),
            recordedAction: action, outcome: outcome,
            actorUserID: actorUserId.flatMap(UUID.init(uuidString:)),
            organisationID: organisationId.flatMap(UUID.init(uuidString:)),
            subjectType: subjectType, subjectID: subjectId, source: source,
            details: ((try? JSONDecoder().decode([String: String].self, from: Data(details.utf8))) ?? [:])
                .merging(clientAddress.map { [AuditEvent.clientAddressKey: $0] } ?? [:]) { recorded, _ in recorded }
        )
    }
}

extension PortvaktStore {
    /// The rows of a ``selectAuditEvents(_:)`` query, each with its client address while it is kept.
    static func auditRows(_ query: SQLSelectBuilder) async throws -> [AuditRow] {
        try await query.all().map { row in
            var audit = try row.decode(model: AuditRow.self, keyDecodingStrategy: SnakeCaseColumns.decoding)
            audit.clientAddress = try row.decodeNil(column: "client_address") ? nil : try row.decode(column: "client_address", as: String.self)
            return audit
        }
    }

    /// Audit events with their client address, while it is kept (`audit_addresses`).
    static func selectAuditEvents(_ db: any SQLDatabase) -> SQLSelectBuilder {
        db.select().column(SQLColumn(SQLLiteral.all, table: SQLIdentifier("audit_events")))
            .column(SQLColumn("client_address", table: "audit_addresses"))
            .from("audit_events")
            .join("audit_addresses", method: SQLJoinMethod.left, on: SQLColumn("event_id", table: "audit_addresses"), .equal, SQLColumn("id", table: "audit_events"))
    }
}
