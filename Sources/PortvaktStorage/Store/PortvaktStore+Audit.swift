import Foundation
import PortvaktCore
import SQLKit

extension PortvaktStore {
    /// Appends an event to the audit trail.
    public func append(_ event: AuditEvent) async throws {
        try await write { db in try await Self.append(event, in: db) }
    }

    /// Appends inside a caller's transaction, so the event commits with what it records.
    public static func append(_ event: AuditEvent, in db: any SQLDatabase) async throws {
        try await db.insert(into: "audit_events").row(AuditRow(event)).run()
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

private struct AuditRow: Codable {
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
