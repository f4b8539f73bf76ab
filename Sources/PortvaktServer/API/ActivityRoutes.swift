import Foundation
import Hummingbird
import PortvaktCore
import PortvaktHTTP
import PortvaktStorage

/// `POST /v1/activities` logs an activity (with an `Idempotency-Key`, so an offline queue can
/// replay it safely); `GET /v1/activities[?organisation=slug]` lists what the caller may see.
struct ActivityRoutes {
    let broker: Broker

    func register(on router: Router<PortvaktRequestContext>) {
        router.post("/v1/activities") { request, context in
            try await create(request, context)
        }
        router.get("/v1/activities") { request, context in
            let caller = try context.caller()
            let listed = try await caller.visibleRows(in: try request.queryFields()["organisation"]) { organisation, scope in
                try await broker.store.activities(scope).map { ActivityInfo($0, organisation: organisation.slug) }
            }
            return try APIResponse.json(["activities": listed])
        }
    }

    private func create(_ request: Request, _ context: PortvaktRequestContext) async throws -> Response {
        let caller = try context.caller()
        let key = try IdempotencyKey(request)
        let body = try await request.decodeJSON(NewActivity.self, multiline: ["note"])
        let organisation = try caller.organisation(body.organisation)
        guard let occurredAt = try? Date(body.occurredAt, strategy: .iso8601) else {
            throw OAuthFailure.invalidRequest("occurred_at must be an ISO 8601 time, such as 2026-11-21T09:30:00Z.")
        }
        guard (1...64).contains(body.kind.count), (1...1440).contains(body.durationMinutes), (body.note?.count ?? 0) <= 2000 else {
            throw OAuthFailure.invalidRequest("kind must be 1 to 64 characters, duration_minutes 1 to 1440, note at most 2000 characters.")
        }
        if let contactID = body.contactId {
            guard let contact = try await broker.store.contact(id: contactID), contact.organisationId == organisation.organisationID,
                  caller.maySee(organisationID: contact.organisationId, owner: contact.assignedUserId)
            else { throw OAuthFailure.notFound("contact") }
        }
        let write = try await broker.store.createActivity(Activity(
            organisationID: organisation.organisationID, userID: caller.userID, kind: body.kind, occurredAt: occurredAt,
            durationMinutes: body.durationMinutes, note: body.note, contactID: body.contactId,
            idempotencyKey: key.value, requestHash: try IdempotencyKey.requestHash(body), now: broker.now()
        ))
        return try IdempotencyKey.response(write) { ActivityInfo($0, organisation: organisation.slug) }
    }
}

private struct NewActivity: Codable {
    let organisation: String
    let kind: String
    let occurredAt: String
    let durationMinutes: Int
    let note: String?
    let contactId: String?

    enum CodingKeys: String, CodingKey {
        case organisation, kind, note
        case occurredAt = "occurred_at"
        case durationMinutes = "duration_minutes"
        case contactId = "contact_id"
    }
}

private struct ActivityInfo: Encodable {
    let id: String
    let organisation: String
    let userId: String
    let kind: String
    let occurredAt: String
    let durationMinutes: Int
    let note: String?
    let contactId: String?
    let createdAt: String

    init(_ activity: Activity, organisation: String) {
        id = activity.id
        self.organisation = organisation
        userId = activity.userId
        kind = activity.kind
        occurredAt = Date(millisecondsSince1970: activity.occurredAt).formatted(.iso8601)
        durationMinutes = activity.durationMinutes
        note = activity.note
        contactId = activity.contactId
        createdAt = Date(millisecondsSince1970: activity.createdAt).formatted(.iso8601)
    }
}
