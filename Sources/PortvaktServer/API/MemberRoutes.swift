import Foundation
import Hummingbird
import PortvaktCore
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
            try await APIResponse.answer {
                let caller = try await APICaller.authenticate(request, broker: broker)
                let organisation = try caller.organisation(context.parameters.get("slug"))
                try caller.require([.coordinator, .orgAdmin], in: organisation)
                let users = try await broker.store.recordHolders(organisationID: organisation.organisationID)
                let records = try await broker.store.memberRecords(organisationID: organisation.organisationID)
                return try APIResponse.json(["members": records.map { MemberInfo($0, userID: users[$0.id]) }])
            }
        }
        router.delete("/v1/organisations/:slug/members/:user/devices") { request, context in
            try await APIResponse.answer {
                let caller = try await APICaller.authenticate(request, broker: broker)
                let organisation = try caller.organisation(context.parameters.get("slug"))
                try caller.require([.orgAdmin], in: organisation)
                let userID = context.parameters.get("user") ?? ""
                let members = try await broker.store.memberships(organisationID: organisation.organisationID)
                guard members.contains(where: { $0.userId == userID }) else { throw OAuthFailure.notFound("member") }
                let revoked = try await MemberAdministration(broker: broker, adminID: caller.userID, organisationID: organisation.organisationID)
                    .removeAllDevices(userID: userID, source: "api")
                return try APIResponse.json(["revoked": revoked])
            }
        }
        router.post("/v1/organisations/:slug/users/merge") { request, context in
            try await APIResponse.answer {
                let caller = try await APICaller.authenticate(request, broker: broker)
                let organisation = try caller.organisation(context.parameters.get("slug"))
                try caller.require([.orgAdmin], in: organisation)
                let now = broker.now()
                try caller.requireStepUp(.accountsMerge, at: now)
                let body = try await request.decodeJSON(MergeRequest.self)
                guard body.keep != body.remove else { throw OAuthFailure.invalidRequest(AccountMerge.Refusal.sameAccount.description) }
                do {
                    try await AccountMerge(store: broker.store, vault: broker.keys.vault).mergeAsAdministrator(
                        keep: body.keep, remove: body.remove, adminID: caller.userID, organisationID: organisation.organisationID, now: now
                    )
                } catch let refusal as AccountMerge.Refusal {
                    throw OAuthFailure(error: "merge_refused", description: refusal.description, message: .notAllowed, status: .forbidden)
                } catch let error as StoreError where error.isDuplicate {
                    throw OAuthFailure(error: "conflict", description: "Both accounts hold data under the same key; sort it out first.", status: .conflict)
                }
                return try APIResponse.json(["kept": body.keep, "removed": body.remove])
            }
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
