import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktStorage

/// `POST /v1/activities` logs an activity (with an `Idempotency-Key`, so an offline queue can
/// replay it safely); `GET /v1/activities[?organisation=slug]` lists what the caller may see.
struct ActivityRoutes {
    let activities: ActivityLog

    func register(on router: Router<PortvaktRequestContext>) {
        router.post("/v1/activities") { request, context in
            try await create(request, context)
        }
        router.get("/v1/activities") { request, context in
            let listed = try await activities.list(in: try request.queryFields()["organisation"], by: try context.caller().actor)
            return try APIResponse.json(["activities": listed.map(ActivityInfo.init)])
        }
    }

    private func create(_ request: Request, _ context: PortvaktRequestContext) async throws -> Response {
        let caller = try context.caller()
        let key = try IdempotencyKey(request)
        let body = try await request.decodeJSON(NewActivity.self, multiline: ["note"])
        let entry = ActivityLog.Entry(
            organisation: body.organisation, kind: body.kind, occurredAt: body.occurredAt, durationMinutes: body.durationMinutes,
            note: body.note, contactID: body.contactId
        )
        let write = try await activities.log(entry, key: try key.writeKey(for: body), by: caller.actor)
        return try IdempotencyKey.response(write, ActivityInfo.init)
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

    init(_ listed: InOrganisation<Activity>) {
        let activity = listed.row
        id = activity.id
        organisation = listed.organisation
        userId = activity.userId
        kind = activity.kind
        occurredAt = Date(millisecondsSince1970: activity.occurredAt).formatted(.iso8601)
        durationMinutes = activity.durationMinutes
        note = activity.note
        contactId = activity.contactId
        createdAt = Date(millisecondsSince1970: activity.createdAt).formatted(.iso8601)
    }
}
