import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktProtocol
import PortvaktStorage

/// `POST /v1/activities` logs an activity (with an `Idempotency-Key`, so an offline queue can
/// replay it safely); `GET /v1/activities[?organisation=slug]` lists what the caller may see.
struct ActivityRoutes {
    let activities: ActivityLog

    func register(on routes: DeclaredRoutes) {
        routes.post("/v1/activities", .member, surface: .json) { request, context in
            try await create(request, context)
        }
        routes.get("/v1/activities", .member, surface: .json) { request, context in
            let listed = try await activities.list(in: try request.queryFields()["organisation"], by: try context.caller().actor)
            return try APIResponse.json(ActivityList(activities: listed.map { ActivityInfo($0) }))
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
        return try IdempotencyKey.response(write) { ActivityInfo($0) }
    }
}

extension ActivityInfo {
    init(_ listed: InOrganisation<Activity>) {
        let activity = listed.row
        self.init(
            id: activity.id, organisation: listed.organisation, userId: activity.userId, kind: activity.kind,
            occurredAt: Date(millisecondsSince1970: activity.occurredAt).formatted(.iso8601), durationMinutes: activity.durationMinutes,
            note: activity.note, contactId: activity.contactId, createdAt: Date(millisecondsSince1970: activity.createdAt).formatted(.iso8601)
        )
    }
}
