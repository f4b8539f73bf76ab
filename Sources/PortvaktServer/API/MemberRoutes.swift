import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktStorage

/// Running an organisation:
///
/// - `GET /v1/organisations/{slug}/members` (coordinators and administrators): the member list,
///   with the user id of members who have logged in (to assign contacts) and whether a
///   personnummer is on file, never the number;
/// - `DELETE /v1/organisations/{slug}/members/{user_id}/devices` (administrators): revokes every
///   biometric device of a member (a lost phone) and ends the sessions they unlocked;
/// - `POST /v1/organisations/{slug}/users/merge` `{"keep", "remove"}` (administrators): merges
///   two accounts of one person, both members of the organisation.
struct MemberRoutes {
    let broker: Broker

    func register(on router: Router<PortvaktRequestContext>) {
        router.get("/v1/organisations/:slug/members") { request, context in
            let caller = try context.caller()
            let organisation = try caller.organisation(context.parameters.get("slug"))
            let users = try await broker.store.recordHolders(organisationID: organisation.organisationID)
            let records = try await broker.store.memberRecords(organisationID: organisation.organisationID)
            return try APIResponse.json(["members": records.map { MemberInfo($0, userID: users[$0.id]) }])
        }
        router.delete("/v1/organisations/:slug/members/:user/devices") { request, context in
            let caller = try context.caller()
            let organisation = try caller.organisation(context.parameters.get("slug"))
            let revoked = try await broker.memberAdministration.removeAllDevices(
                of: context.parameters.get("user") ?? "", in: organisation, by: caller.actor, source: "api"
            )
            return try APIResponse.json(["revoked": revoked])
        }
        router.post("/v1/organisations/:slug/users/merge") { request, context in
            let caller = try context.caller()
            let organisation = try caller.organisation(context.parameters.get("slug"))
            // The policy before the body (the domain operation checks it again; this orders the answers).
            try caller.actor.authorize(.accountsMerge, in: organisation, at: broker.now())
            let body = try await request.decodeJSON(MergeRequest.self)
            try await broker.accountMerge.mergeAsAdministrator(keep: body.keep, remove: body.remove, in: organisation, by: caller.actor)
            return try APIResponse.json(["kept": body.keep, "removed": body.remove])
        }
    }
}

private struct MergeRequest: Decodable {
    let keep: String
    let remove: String
}

private struct MemberInfo: Encodable {
    let id: String
    let userId: String?
    let fullName: String
    let role: String
    let email: String?
    let phone: String?
    let personnummerOnFile: Bool

    init(_ record: MemberRecord, userID: String?) {
        id = record.id
        userId = userID
        fullName = record.fullName
        role = record.role.rawValue
        email = record.email
        phone = record.phone
        personnummerOnFile = record.personnummer != nil
    }
}
