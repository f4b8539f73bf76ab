import PortvaktDomain
import Foundation
import Hummingbird
import PortvaktCore
import PortvaktHTTP
import PortvaktModels
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
        let rows = events.map { chained in
            let event = chained.event
            return AuditView.Event(
                sequence: chained.sequence.map { "#\($0)" } ?? "–",
                when: LocalTime.text(event.occurredAt, language),
                what: AdminWords.event(event.action, outcome: event.outcome, language),
                who: event.actorUserID.flatMap { names[$0.uuidString.lowercased()] } ?? AdminText.bySystem.text(language)
            )
        }
        // From the head the last view found intact (review II, item 9); `audit verify` walks it all.
        let report = try await store.verifyAuditChain(pageSize: 1000, sinceVerified: true)
        let verification = report.firstBroken.map { broken in
            AdminPhrase.theChainIsBrokenAtEvent.text(language, ["sequence": String(broken.sequence), "reason": String(broken.reason)])
        } ?? AdminPhrase.theChainIsVerifiedUpTo.text(language, ["checked": String(report.checked)])
        let link = { (page: Int) in FormFields.link(admin.base + "/audit", [("kind", action), ("member", member?.recordID), ("page", String(page))]) }
        return admin.page("admin_audit", section: .audit, values: AuditView(
            verification: verification, intact: report.isIntact,
            kinds: actions.map { AdminOption(value: $0, label: AdminWords.event($0, outcome: nil, language), selected: $0 == action) },
            members: records.map { AdminOption(value: $0.id, label: $0.fullName, selected: $0.id == member?.recordID) },
            events: rows, hasEvents: !rows.isEmpty,
            summary: AdminPhrase.events.text(language, count: total),
            paging: paging.links(language, link: link),
            today: LocalTime.dayText(admin.services.now())
        ))
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

/// What `admin_audit` reads.
struct AuditView: PageValues {
    /// Whether the hash chain verifies, in words.
    let verification: String
    let intact: Bool
    let kinds: [AdminOption]
    let members: [AdminOption]
    let events: [Event]
    let hasEvents: Bool
    let summary: String
    let paging: PagingLinks
    /// `YYYY-MM-DD`, the export's default range.
    let today: String

    /// One event in words; "#n" its place in the chain.
    struct Event: PageValues {
        let sequence: String
        let when: String
        let what: String
        let who: String
    }
}
