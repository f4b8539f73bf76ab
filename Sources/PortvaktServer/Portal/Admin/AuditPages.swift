import PortvaktDomain
import Foundation
import Hummingbird
import PortvaktCore
import PortvaktStorage

/// `/admin/{slug}/audit`: the organisation's audit trail, newest first, in words, by kind and
/// member, pages of 50; whether the hash chain verifies (the same walk as `portvakt-server audit
/// verify`); and an export of a date range as CSV or JSON lines (itself audited).
struct AuditPages {
    let admin: AdminRequest
    static let pageSize = 50
    static let exportLimit = 100_000

    private var store: any AdministrationReadStore { admin.services.store }
    private var language: Language { admin.language }

    func list() async throws -> Response {
        let query = admin.query
        let actions = try await store.auditActions(organisationID: admin.organisationID)
        var action: String?
        if let text = query["kind"], !text.isEmpty {
            guard actions.contains(text) || AdminWords.knownActions.contains(text) else { return badFilter() }
            action = text
        }
        let records = try await store.memberRecords(organisationID: admin.organisationID)
            .sorted { $0.fullName.localizedStandardCompare($1.fullName) == .orderedAscending }
        var member: (recordID: String, userID: String?)?
        if let text = query["member"], !text.isEmpty {
            guard let record = records.first(where: { $0.id == text }) else { return badFilter() }
            member = (record.id, try await store.recordHolders(organisationID: admin.organisationID)[record.id])
        }
        let total = try await store.auditEvents(organisationID: admin.organisationID, action: action, member: member, offset: 0, limit: 0).total
        guard let paging = admin.paging(total: total, size: Self.pageSize) else { return admin.problem(.noSuchPage, status: .badRequest, back: admin.base + "/audit") }
        let events = try await store.auditEvents(organisationID: admin.organisationID, action: action, member: member, offset: paging.offset, limit: paging.size).events
        let names = try await self.names(events)
        let rows = events.map { chained -> [String: Any] in
            let event = chained.event
            return [
                "sequence": chained.sequence.map { "#\($0)" } ?? "–",
                "when": LocalTime.text(event.occurredAt, language),
                "what": AdminWords.event(event.action, outcome: event.outcome, language),
                "who": event.actorUserID.flatMap { names[$0.uuidString.lowercased()] } ?? AdminText.bySystem.text(language),
            ]
        }
        // From the head the last view found intact (review II, item 9); `audit verify` walks it all.
        let report = try await store.verifyAuditChain(pageSize: 1000, sinceVerified: true)
        let verification = report.firstBroken.map { broken in
            language.pick("Kjeden er brutt ved hendelse #\(broken.sequence): \(broken.reason).", "The chain is broken at event #\(broken.sequence): \(broken.reason).")
        } ?? language.pick("Kjeden er kontrollert til og med hendelse #\(report.checked): ingen hendelse er endret, fjernet eller satt inn.",
                           "The chain is verified up to event #\(report.checked): no event was edited, removed or inserted.")
        let link = { (page: Int) in FormFields.link(admin.base + "/audit", [("kind", action), ("member", member?.recordID), ("page", String(page))]) }
        return admin.page("admin_audit", section: .audit, values: [
            "verification": verification, "intact": report.isIntact,
            "kinds": [[String: Any]](actions.map { ["value": $0, "label": AdminWords.event($0, outcome: nil, language), "selected": $0 == action] }),
            "members": [[String: Any]](records.map { ["value": $0.id, "label": $0.fullName, "selected": $0.id == member?.recordID] }),
            "events": rows, "hasEvents": !rows.isEmpty,
            "summary": language.pick(total == 1 ? "1 hendelse" : "\(total) hendelser", total == 1 ? "1 event" : "\(total) events"),
            "paging": paging.values(language, link: link),
            "today": LocalTime.dayText(admin.services.now()),
        ])
    }

    /// `?from=YYYY-MM-DD&to=YYYY-MM-DD&format=csv|jsonl`: the days from and to, both included.
    func export() async throws -> Response {
        let query = admin.query
        guard let fromText = query["from"], let toText = query["to"], let from = LocalTime.day(fromText),
              let to = LocalTime.day(toText)?.addingTimeInterval(86_400), from < to,
              let format = query["format"], ["csv", "jsonl"].contains(format)
        else { return admin.problem(.badExport, status: .badRequest, back: admin.base + "/audit") }
        let events = try await store.auditEvents(organisationID: admin.organisationID, from: from, to: to, limit: Self.exportLimit)
        try await store.append(AuditEvent(
            occurredAt: admin.services.now(), action: .auditExported, outcome: "success", actorUserID: UUID(uuidString: admin.adminID),
            organisationID: UUID(uuidString: admin.organisationID), subjectType: "organisation", subjectID: admin.organisationID, source: "portal",
            details: ["from": fromText, "to": toText, "format": format, "events": "\(events.count)"]
        ))
        let body = format == "csv" ? AuditExport.csv(events) : AuditExport.jsonLines(events)
        var headers = PortalPage.securityHeaders
        headers[.contentType] = format == "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson"
        headers[.contentDisposition] = "attachment; filename=\"portvakt-audit-\(admin.organisation.slug)-\(fromText)-\(toText).\(format)\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    private func names(_ events: [ChainedAuditEvent]) async throws -> [String: String] {
        var names: [String: String] = [:]
        for id in Set(events.compactMap { $0.event.actorUserID?.uuidString.lowercased() }) { names[id] = try await store.user(id: id)?.displayName }
        return names
    }

    private func badFilter() -> Response {
        admin.problem(.badFilter, status: .badRequest, back: admin.base + "/audit")
    }
}

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
