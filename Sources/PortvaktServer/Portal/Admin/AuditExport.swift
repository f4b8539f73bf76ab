import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktStorage

/// The audit trail as files: ids and codes only, as the trail holds them (never a number).
enum AuditExport {
    static let columns = ["sequence", "id", "occurred_at", "action", "outcome", "actor_user_id", "subject_type", "subject_id", "source", "details"]

    static func fields(_ chained: ChainedAuditEvent) -> [String] {
        let event = chained.event
        let details = String(decoding: (try? JSONSerialization.data(withJSONObject: event.details, options: [.sortedKeys])) ?? Data("{}".utf8), as: UTF8.self)
        return [
            chained.sequence.map(String.init) ?? "", event.id.uuidString.lowercased(), event.occurredAt.formatted(.iso8601), event.action, event.outcome,
            event.actorUserID?.uuidString.lowercased() ?? "", event.subjectType ?? "", event.subjectID ?? "", event.source ?? "", details,
        ]
    }

    /// RFC 4180: every field quoted, quotes doubled, CRLF line ends.
    static func csv(_ events: [ChainedAuditEvent]) -> String {
        let quote = { (field: String) in "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        return ([columns] + events.map(fields)).map { $0.map(quote).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    static func jsonLines(_ events: [ChainedAuditEvent]) -> String {
        events.map { chained in
            var object: [String: Any] = [:]
            for (column, value) in zip(columns, fields(chained)) where column != "details" { object[column] = value }
            object["details"] = chained.event.details
            if let sequence = chained.sequence { object["sequence"] = sequence }
            return String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data(), as: UTF8.self)
        }.joined(separator: "\n") + (events.isEmpty ? "" : "\n")
    }
}
