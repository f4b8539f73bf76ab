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
    /// The event is linked into the hash chain: moving the chain head (one UPDATE that also
    /// returns the previous hash) locks it until the transaction ends, so concurrent appends
    /// queue and each links to the one before. Append audit events last in a transaction, so
    /// that the head is always the last lock taken.
    public func append(_ event: AuditEvent, in db: any SQLDatabase) async throws {
        try await Self.append(event, in: db, keys: auditKeys)
    }

    static func append(_ event: AuditEvent, in db: any SQLDatabase, keys: AuditKeyRing) async throws {
        var row = try AuditRow(event)
        guard let previous = try await db.update("audit_chain_head").set("sequence", to: SQLColumn("sequence"))
            .where("id", .equal, 1).returning("sequence", "hash").first(as: AuditChainHead.self)
        else { throw StoreError.notFound("audit_chain_head") }
        let head = try row.chain(after: previous, keys: keys)
        try await db.update("audit_chain_head").set("sequence", to: head.sequence).set("hash", to: head.hash).where("id", .equal, 1).run()
        try await db.insert(into: "audit_events").row(row).run()
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

    var event: AuditEvent {
        AuditEvent(
            id: UUID(uuidString: id) ?? UUID(), occurredAt: Date(millisecondsSince1970: occurredAt),
            action: action, outcome: outcome,
            actorUserID: actorUserId.flatMap(UUID.init(uuidString:)),
            organisationID: organisationId.flatMap(UUID.init(uuidString:)),
            subjectType: subjectType, subjectID: subjectId, source: source,
            details: (try? JSONDecoder().decode([String: String].self, from: Data(details.utf8))) ?? [:]
        )
    }
}
