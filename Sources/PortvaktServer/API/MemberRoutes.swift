import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktStorage

/// Running an organisation:
///
/// - `GET /v1/organisations/{slug}/members` (coordinators and administrators): the member list,
///   with the user id of members who have logged in (to assign contacts) and whether a
///   personnummer is on file, never the number;
/// - `DELETE /v1/organisations/{slug}/members/{user_id}/devices` (administrators, after a fresh
///   BankID, Vipps or passkey sign-in: ``SensitiveAction/devicesRemoveAll``): revokes every
///   biometric device of a member (a lost phone), in all their organisations, and ends the
///   sessions they unlocked;
/// - `POST /v1/organisations/{slug}/users/merge` `{"keep", "remove"}` (administrators): merges
///   two accounts of one person, both members of the organisation.
struct MemberRoutes {
    let administration: MemberAdministration
    let merge: AccountMerge
    let now: @Sendable () -> Date

    func register(on routes: DeclaredRoutes) {
        routes.get("/v1/organisations/:slug/members", .coordinators, surface: .json) { _, context in
            let caller = try context.caller()
            let members = try await administration.members(of: try caller.organisation(context.parameters.get("slug")), by: caller.actor)
            return try APIResponse.json(["members": members.map { MemberInfo($0.record, userID: $0.holder) }])
        }
        routes.delete("/v1/organisations/:slug/members/:user/devices", .administrators.taking(.devicesRemoveAll), surface: .json) { _, context in
            let caller = try context.caller()
            let revoked = try await administration.removeAllDevices(
                of: context.parameters.get("user") ?? "", in: try caller.organisation(context.parameters.get("slug")), by: caller.actor, source: "api"
            )
            return try APIResponse.json(["revoked": revoked])
        }
        routes.post("/v1/organisations/:slug/users/merge", .administrators.taking(.accountsMerge), surface: .json) { request, context in
            let caller = try context.caller()
            let organisation = try caller.organisation(context.parameters.get("slug"))
            // The policy before the body (the domain operation checks it again; this orders the answers).
            try caller.actor.authorize(.accountsMerge, in: organisation, at: now())
            let body = try await request.decodeJSON(MergeRequest.self)
            try await merge.mergeAsAdministrator(keep: body.keep, remove: body.remove, in: organisation, by: caller.actor)
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
