import Foundation
import Hummingbird
import Personnummer
import PortvaktCore
import PortvaktHTTP
import PortvaktStorage

/// Review for an organisation's administrators (`org_admin` of that organisation only):
///
/// - `GET /v1/organisations/{slug}/member-sync[?outcome=…&status=open]`: the sync log, numbers masked;
/// - `GET /v1/organisations/{slug}/member-sync/{id}`: one entry; with a step-up for
///   `personnummer.read` the member's and the login's numbers in full (audited);
/// - `POST /v1/organisations/{slug}/member-sync/{id}/resolve` `{"keep": "member" | "login"}`:
///   closes an open conflict, taking the login's number into the record (and the outbox) or not;
/// - `GET /v1/organisations/{slug}/outbox[?status=dead]`: updates for the member system.
struct MemberSyncRoutes {
    let broker: Broker

    func register(on router: Router<PortvaktRequestContext>) {
        router.get("/v1/organisations/:slug/member-sync") { request, context in
            try await APIResponse.answer {
                let (_, organisation) = try await administrator(request, context)
                let query = try request.queryFields()
                var outcome: MemberSyncOutcome?
                if let name = query["outcome"] {
                    guard let parsed = MemberSyncOutcome(rawValue: name) else { throw OAuthFailure.invalidRequest("outcome is not a sync outcome.") }
                    outcome = parsed
                }
                let entries = try await broker.store.memberSyncEntries(organisationID: organisation.organisationID, outcome: outcome, status: query["status"])
                var listed: [EntryInfo] = []
                for entry in entries { listed.append(try await info(entry, full: false)) }
                return try APIResponse.json(["entries": listed])
            }
        }
        router.get("/v1/organisations/:slug/member-sync/:id") { request, context in
            try await APIResponse.answer {
                let (caller, organisation) = try await administrator(request, context)
                let entry = try await entry(context, in: organisation)
                // Full numbers only behind a fresh biometric step-up; masked otherwise.
                let full = (try? await APICaller.authenticate(request, broker: broker, stepUp: .personnummerRead)) != nil
                if full {
                    try await broker.store.append(AuditEvent(
                        occurredAt: broker.now(), action: "member.personnummer.viewed", outcome: "success", actorUserID: UUID(uuidString: caller.userID),
                        organisationID: UUID(uuidString: organisation.organisationID), subjectType: "member_sync", subjectID: entry.id
                    ))
                }
                return try APIResponse.json(try await info(entry, full: full))
            }
        }
        router.post("/v1/organisations/:slug/member-sync/:id/resolve") { request, context in
            try await APIResponse.answer { try await resolve(request, context) }
        }
        router.get("/v1/organisations/:slug/outbox") { request, context in
            try await APIResponse.answer {
                let (_, organisation) = try await administrator(request, context)
                let messages = try await broker.store.outboxMessages(organisationID: organisation.organisationID, status: try request.queryFields()["status"])
                return try APIResponse.json(["messages": messages.map(OutboxInfo.init)])
            }
        }
    }

    private func resolve(_ request: Request, _ context: PortvaktRequestContext) async throws -> Response {
        let (caller, organisation) = try await administrator(request, context)
        let entry = try await entry(context, in: organisation)
        let body = try await request.decodeJSON(Resolution.self)
        guard ["member", "login"].contains(body.keep) else { throw OAuthFailure.invalidRequest("keep must be member or login.") }
        guard entry.outcome == .conflict, entry.status == "open", let recordID = entry.memberRecordId,
              let record = try await broker.store.memberRecord(id: recordID)
        else { throw OAuthFailure(error: "conflict", description: "Only an open conflict can be resolved.", status: .conflict) }
        let now = broker.now()
        var writes = MemberSyncWrites()
        if body.keep == "login", let sealed = entry.loginPersonnummer {
            let number = try broker.keys.vault.open(sealed, record: MemberSyncEntry.vaultRecord(entryID: entry.id))
            if try await broker.store.memberRecords(personnummerIndex: broker.keys.vault.blindIndex(number))
                .contains(where: { $0.organisationId == record.organisationId && $0.id != record.id }) {
                throw OAuthFailure(error: "conflict", description: "Another member record of the organisation holds the login's number; merge them first.", status: .conflict)
            }
            writes.personnummerUpdates.append((record.id, try broker.keys.vault.protect(number, record: MemberRecord.personnummerContext(recordID: record.id))))
            if let message = try await MemberSyncPlanner(broker: broker).outboxMessage(for: record, number: number, source: "admin-review", now: now) {
                writes.outbox.append(message)
            }
        }
        let resolution = body.keep == "login" ? "took_login" : "kept_member"
        writes.audit.append(AuditEvent(
            occurredAt: now, action: "member.personnummer.conflict_resolved", outcome: resolution, actorUserID: UUID(uuidString: caller.userID),
            organisationID: UUID(uuidString: organisation.organisationID), subjectType: "member", subjectID: record.id, source: "admin-review",
            details: ["entry": entry.id]
        ))
        guard try await broker.store.resolveConflict(entryID: entry.id, resolution: resolution, by: caller.userID, writes: writes, now: now) else {
            throw OAuthFailure(error: "conflict", description: "Only an open conflict can be resolved.", status: .conflict)
        }
        guard let resolved = try await broker.store.memberSyncEntry(id: entry.id) else { throw OAuthFailure.notFound("entry") }
        return try APIResponse.json(try await info(resolved, full: false))
    }

    /// The caller, when an administrator of the organisation in the path.
    private func administrator(_ request: Request, _ context: PortvaktRequestContext) async throws -> (APICaller, OrganisationRoles) {
        let caller = try await APICaller.authenticate(request, broker: broker)
        let organisation = try caller.organisation(context.parameters.get("slug"))
        try caller.require([.orgAdmin], in: organisation)
        return (caller, organisation)
    }

    private func entry(_ context: PortvaktRequestContext, in organisation: OrganisationRoles) async throws -> MemberSyncEntry {
        guard let entry = try await broker.store.memberSyncEntry(id: context.parameters.get("id") ?? ""),
              entry.organisationId == organisation.organisationID
        else { throw OAuthFailure.notFound("sync entry") }
        return entry
    }

    private func info(_ entry: MemberSyncEntry, full: Bool) async throws -> EntryInfo {
        var record: MemberRecord?
        if let id = entry.memberRecordId { record = try await broker.store.memberRecord(id: id) }
        let vault = broker.keys.vault
        let memberNumber = try record.flatMap { record in
            try record.personnummer.map { try vault.open($0.sealed, record: MemberRecord.personnummerContext(recordID: record.id)) }
        }
        let loginNumber = try entry.loginPersonnummer.map { try vault.open($0, record: MemberSyncEntry.vaultRecord(entryID: entry.id)) }
        let show = { (number: Personnummer?) in number.map { full ? $0.digits : $0.masked } }
        return EntryInfo(
            id: entry.id, occurredAt: Date(millisecondsSince1970: entry.occurredAt).formatted(.iso8601), source: entry.source,
            outcome: entry.outcome.rawValue, status: entry.status, memberID: entry.memberRecordId, memberName: record?.fullName,
            memberPersonnummer: show(memberNumber), loginPersonnummer: show(loginNumber), resolution: entry.resolution
        )
    }
}

private struct Resolution: Decodable {
    let keep: String
}

private struct EntryInfo: Encodable {
    let id: String
    let occurredAt: String
    let source: String
    let outcome: String
    let status: String?
    let memberID: String?
    let memberName: String?
    /// Masked (`150586*****`) unless shown behind a step-up.
    let memberPersonnummer: String?
    let loginPersonnummer: String?
    let resolution: String?
}

private struct OutboxInfo: Encodable {
    let id: String
    let memberID: String?
    let event: String
    let status: String
    let attempts: Int
    let lastError: String?
    let createdAt: String
    let deliveredAt: String?

    init(_ message: OutboxMessage) {
        id = message.id
        memberID = message.memberRecordId
        event = message.event
        status = message.status
        attempts = message.attempts
        lastError = message.lastError
        createdAt = Date(millisecondsSince1970: message.createdAt).formatted(.iso8601)
        deliveredAt = message.deliveredAt.map { Date(millisecondsSince1970: $0).formatted(.iso8601) }
    }
}
