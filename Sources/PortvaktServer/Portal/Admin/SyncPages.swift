import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktStorage

/// `/admin/{slug}/sync`: the member-sync log in words, filtered by outcome, open/closed and date;
/// one entry with both numbers masked. Revealing them in full and resolving a conflict need a
/// BankID or Vipps login of the administrator within five minutes; both are audited.
struct SyncPages {
    let admin: AdminRequest
    static let pageSize = 25

    private var store: any AdministrationReadStore { admin.services.store }
    private var language: Language { admin.language }

    func list() async throws -> Response {
        let query = admin.query
        var outcome: MemberSyncOutcome?
        var status: String?
        if let text = query["outcome"], !text.isEmpty {
            guard let parsed = MemberSyncOutcome(rawValue: text) else { return badFilter() }
            outcome = parsed
        }
        if let text = query["status"], !text.isEmpty {
            guard ["open", "resolved"].contains(text) else { return badFilter() }
            status = text
        }
        let fromText = query["from"] ?? "", toText = query["to"] ?? ""
        let from = fromText.isEmpty ? nil : LocalTime.day(fromText)
        let to = toText.isEmpty ? nil : LocalTime.day(toText)?.addingTimeInterval(86_400)
        guard fromText.isEmpty || from != nil, toText.isEmpty || to != nil else { return badFilter() }
        let total = try await store.memberSyncEntries(
            organisationID: admin.organisationID, outcome: outcome, status: status, from: from, to: to, offset: 0, limit: 0
        ).total
        guard let paging = admin.paging(total: total, size: Self.pageSize) else { return admin.problem(.noSuchPage, status: .badRequest, back: admin.base + "/sync") }
        let entries = try await store.memberSyncEntries(
            organisationID: admin.organisationID, outcome: outcome, status: status, from: from, to: to, offset: paging.offset, limit: paging.size
        ).entries
        var names: [String: String] = [:]
        for id in Set(entries.compactMap(\.memberRecordId)) { names[id] = try await store.memberRecord(id: id)?.fullName }
        let rows = entries.map { entry in
            SyncView.Entry(
                href: "\(admin.base)/sync/\(entry.id)",
                when: LocalTime.text(Date(millisecondsSince1970: entry.occurredAt), language),
                member: entry.memberRecordId.flatMap { names[$0] } ?? "–",
                what: AdminWords.syncOutcome(entry.outcome, source: entry.source, language),
                state: AdminWords.syncStatus(entry, language)
            )
        }
        let link = { (page: Int) in
            FormFields.link(admin.base + "/sync", [("outcome", outcome?.rawValue), ("status", status), ("from", fromText), ("to", toText), ("page", String(page))])
        }
        let statuses: [(String, AdminText)] = [("open", .statusOpen), ("resolved", .statusResolved)]
        return admin.page("admin_sync", section: .sync, values: SyncView(
            outcomes: MemberSyncOutcome.allCases.map { AdminOption(value: $0.rawValue, label: AdminWords.outcomeName($0, language), selected: $0 == outcome) },
            statuses: statuses.map { AdminOption(value: $0.0, label: $0.1.text(language), selected: $0.0 == status) },
            from: fromText, to: toText,
            entries: rows, hasEntries: !rows.isEmpty,
            summary: AdminPhrase.entries.text(language, count: total),
            paging: paging.links(language, link: link)
        ))
    }

    /// One entry; `reveal` (a POST) shows the numbers in full after a step-up, and audits it.
    func entry(_ id: String, reveal: Bool, error: AdminText? = nil) async throws -> Response {
        guard let actor = try await admin.actor(), let entry = try await entry(id, by: actor) else { return notFound() }
        let steppedUp = actor.satisfies(.personnummerReveal, at: admin.services.now())
        let review = admin.services.review
        let view: ConflictReview.View
        if reveal {
            guard steppedUp else { return stepUpNeeded(entry) }
            view = try await review.reveal(entry, in: admin.organisation, by: actor, source: "portal")
        } else {
            view = try await review.masked(entry)
        }
        let (record, memberNumber, loginNumber) = (view.record, view.memberNumber, view.loginNumber)
        var page = admin
        if reveal { page.frame.status = AdminText.numbersShown.text(language) }
        if admin.query["done"] == "resolved" { page.frame.status = AdminText.conflictResolved.text(language) }
        let values = SyncEntryView(
            path: "\(admin.base)/sync/\(entry.id)",
            when: LocalTime.text(Date(millisecondsSince1970: entry.occurredAt), language),
            member: record?.fullName ?? "–",
            memberLink: record.map { "\(admin.base)/members/\($0.id)" },
            what: AdminWords.syncOutcome(entry.outcome, source: entry.source, language),
            state: AdminWords.syncStatus(entry, language),
            isConflict: entry.outcome == .conflict,
            open: entry.outcome == .conflict && entry.status == "open",
            memberNumber: memberNumber ?? AdminText.noneOnFile.text(language),
            loginNumber: loginNumber ?? "–",
            revealed: reveal, steppedUp: steppedUp,
            error: error?.text(language)
        )
        return page.page("admin_sync_entry", section: .sync, values: values, status: error == nil ? .ok : .badRequest)
    }

    func resolve(_ id: String) async throws -> Response {
        guard let actor = try await admin.actor(), let entry = try await entry(id, by: actor) else { return notFound() }
        guard actor.satisfies(.conflictResolve, at: admin.services.now()) else { return stepUpNeeded(entry) }
        guard let choice = admin.form?["keep"], ConflictReview.Decision(rawValue: choice) != nil else {
            return try await self.entry(id, reveal: false, error: .chooseNumber)
        }
        do {
            _ = try await admin.services.review.resolve(entry, keep: choice, in: admin.organisation, by: actor)
        } catch let refusal as DomainError {
            return admin.problem(refusal, back: "\(admin.base)/sync/\(entry.id)")
        }
        return admin.redirect("\(admin.base)/sync/\(entry.id)?done=resolved")
    }

    /// The organisation's entry; nil (a 404 page) when unknown or another organisation's.
    private func entry(_ id: String, by actor: Actor) async throws -> MemberSyncEntry? {
        do {
            return try await admin.services.review.entry(id, in: admin.organisation, by: actor)
        } catch let refusal as DomainError where refusal.kind == .notFound {
            return nil
        }
    }

    private func stepUpNeeded(_ entry: MemberSyncEntry) -> Response {
        var page = admin
        page.frame = PortalPage.Frame(language: language, path: "\(admin.base)/sync/\(entry.id)", csrf: admin.frame.csrf)
        let back = "\(admin.base)/sync/\(entry.id)"
        return page.page("admin_step_up", section: .sync, values: AdminStepUpView(back: back, stepUpBack: FormFields.encode(back)), status: .unauthorized)
    }

    private func notFound() -> Response {
        admin.problem(.entryNotFound, heading: .notFoundTitle, status: .notFound, back: admin.base + "/sync")
    }

    private func badFilter() -> Response {
        admin.problem(.badFilter, status: .badRequest, back: admin.base + "/sync")
    }
}

/// What `admin_sync` reads.
struct SyncView: PageValues {
    let outcomes: [AdminOption]
    let statuses: [AdminOption]
    /// The date filter as given (`YYYY-MM-DD`, or empty).
    let from: String
    let to: String
    let entries: [Entry]
    let hasEntries: Bool
    let summary: String
    let paging: PagingLinks

    struct Entry: PageValues {
        let href: String
        let when: String
        let member: String
        let what: String
        let state: String
    }
}

/// What `admin_sync_entry` reads: one entry, its numbers masked or (after a step-up) in full.
struct SyncEntryView: PageValues {
    let path: String
    let when: String
    let member: String
    /// The member's page; nil when the entry names no record of the organisation.
    let memberLink: String?
    let what: String
    let state: String
    let isConflict: Bool
    /// A conflict still to resolve.
    let open: Bool
    let memberNumber: String
    let loginNumber: String
    let revealed: Bool
    let steppedUp: Bool
    /// Why the resolution was refused; nil: none.
    let error: String?
}
