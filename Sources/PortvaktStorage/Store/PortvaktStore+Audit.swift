import Foundation
import PortvaktCore
import Metrics
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
        try await db.insert(into: "audit_events").row(try AuditRow(sealing: event, with: keys)).run()
        AuditAppends.inTransaction?.record()
        countAppended(event)
    }

    static func countAppended(_ event: AuditEvent) {
        Counter(label: "portvakt_audit_events_total", dimensions: [("action", event.action)]).increment()
    }

    /// The trail of one record, oldest first.
    public func auditEvents(subjectType: String, subjectID: String) async throws -> [AuditEvent] {
        try await read { db in
            try await db.select().column("*").from("audit_events")
                .where("subject_type", .equal, subjectType).where("subject_id", .equal, subjectID)
                .orderBy("occurred_at").orderBy("id")
                .all(as: AuditRow.self).map(\.event)
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
            details: (try? JSONDecoder().decode([String: String].self, from: Data(details.utf8))) ?? [:]
        )
    }
}
