import Foundation
import Hummingbird
import Personnummer
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktStorage

/// Review for an organisation's administrators (`org_admin` of that organisation only):
///
/// - `GET /v1/organisations/{slug}/member-sync[?outcome=…&status=open]`: the sync log, numbers masked;
/// - `GET /v1/organisations/{slug}/member-sync/{id}`: one entry; after a BankID or Vipps login
///   within 5 minutes (``SensitiveAction/personnummerReveal``) the numbers in full (audited);
/// - `POST /v1/organisations/{slug}/member-sync/{id}/resolve` `{"keep": "member" | "login"}`:
///   closes an open conflict, taking the login's number into the record (and the outbox) or not;
///   the same step-up as revealing (``SensitiveAction/conflictResolve``);
/// - `GET /v1/organisations/{slug}/outbox[?status=dead]`: updates for the member system;
/// - `POST /v1/organisations/{slug}/outbox/{id}/retry`: sends a dead or waiting update again now
///   (same idempotency key), audited.
struct MemberSyncRoutes {
    let review: ConflictReview
    let administration: MemberAdministration
    let now: @Sendable () -> Date

    func register(on routes: DeclaredRoutes) {
        routes.get("/v1/organisations/:slug/member-sync", .administrators, surface: .json) { request, context in
            let (caller, organisation) = try organisation(context)
            let query = try request.queryFields()
            var outcome: MemberSyncOutcome?
            if let name = query["outcome"] {
                guard let parsed = MemberSyncOutcome(rawValue: name) else { throw OAuthFailure.invalidRequest("outcome is not a sync outcome.") }
                outcome = parsed
            }
            let views = try await review.list(in: organisation, outcome: outcome, status: query["status"], by: caller.actor)
            return try APIResponse.json(["entries": views.map(EntryInfo.init)])
        }
        // Masked for any administrator; in full only under the action's policy.
        routes.get("/v1/organisations/:slug/member-sync/:id", .administrators.taking(.personnummerReveal), surface: .json) { _, context in
            let (caller, organisation) = try organisation(context)
            let entry = try await review.entry(context.parameters.get("id") ?? "", in: organisation, by: caller.actor)
            // Full numbers only after a fresh BankID or Vipps login; masked otherwise.
            let view = caller.satisfies(.personnummerReveal, at: now())
                ? try await review.reveal(entry, in: organisation, by: caller.actor, source: "api")
                : try await review.masked(entry)
            return try APIResponse.json(EntryInfo(view))
        }
        routes.post("/v1/organisations/:slug/member-sync/:id/resolve", .administrators.taking(.conflictResolve), surface: .json) { request, context in
            let (caller, organisation) = try organisation(context)
            let entry = try await review.entry(context.parameters.get("id") ?? "", in: organisation, by: caller.actor)
            // The policy before the body: a caller without the step-up learns nothing from a bad body.
            // (The domain operation checks it again; this only orders the answers.)
            try caller.actor.authorize(.conflictResolve, in: organisation, at: now())
            let body = try await request.decodeJSON(Resolution.self)
            let resolved = try await review.resolve(entry, keep: body.keep, in: organisation, by: caller.actor)
            return try APIResponse.json(EntryInfo(try await review.masked(resolved)))
        }
        routes.get("/v1/organisations/:slug/outbox", .administrators, surface: .json) { request, context in
            let (caller, organisation) = try organisation(context)
            let messages = try await administration.outbox(of: organisation, status: try request.queryFields()["status"], by: caller.actor)
            return try APIResponse.json(["messages": messages.map(OutboxInfo.init)])
        }
        routes.post("/v1/organisations/:slug/outbox/:id/retry", .administrators, surface: .json) { _, context in
            let (caller, organisation) = try organisation(context)
            let message = try await administration.retryDelivery(context.parameters.get("id") ?? "", in: organisation, by: caller.actor, source: "api")
            return try APIResponse.json(OutboxInfo(message))
        }
    }

    /// The caller and the organisation in the path (``RoutePolicyMiddleware`` let only its administrators through).
    private func organisation(_ context: PortvaktRequestContext) throws -> (APICaller, OrganisationRoles) {
        let caller = try context.caller()
        return (caller, try caller.organisation(context.parameters.get("slug")))
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

    init(_ view: ConflictReview.View) {
        let entry = view.entry
        id = entry.id
        occurredAt = Date(millisecondsSince1970: entry.occurredAt).formatted(.iso8601)
        source = entry.source
        outcome = entry.outcome.rawValue
        status = entry.status
        memberID = entry.memberRecordId
        memberName = view.record?.fullName
        memberPersonnummer = view.memberNumber
        loginPersonnummer = view.loginNumber
        resolution = entry.resolution
    }
}

private struct OutboxInfo: Encodable {
    let id: String
    let memberID: String?
    let event: String
    let status: String
    let attempts: Int
    let lastError: String?
    let nextAttemptAt: String?
    let createdAt: String
    let deliveredAt: String?

    init(_ message: OutboxMessage) {
        id = message.id
        memberID = message.memberRecordId
        event = message.event
        status = message.status.rawValue
        attempts = message.attempts
        lastError = message.lastError
        nextAttemptAt = message.status == .pending ? Date(millisecondsSince1970: message.nextAttemptAt).formatted(.iso8601) : nil
        createdAt = Date(millisecondsSince1970: message.createdAt).formatted(.iso8601)
        deliveredAt = message.deliveredAt.map { Date(millisecondsSince1970: $0).formatted(.iso8601) }
    }
}
