import Foundation
import NIOHTTP1
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// A member system's side of SCIM (issue 45), over HTTP against a ``LiveBroker``.
extension LiveBroker {
    static let scimCore = "urn:ietf:params:scim:schemas:core:2.0:User"
    static let scimMembership = "urn:portvakt:params:scim:schemas:extension:membership:2.0:User"
    static let scimPatchOp = "urn:ietf:params:scim:api:messages:2.0:PatchOp"
    static let scimError = "urn:ietf:params:scim:api:messages:2.0:Error"

    /// A member system's token for the organisation `slug` (created first when the sandbox has
    /// none of that name), made through the domain as `portvakt-server scim-token create` makes it.
    func scimToken(organisation slug: String, name: String = "test") async throws -> (token: String, organisationID: String) {
        try await withStore { store in
            let organisation: Organisation
            if let existing = try await store.organisation(slug: slug) {
                organisation = existing
            } else {
                organisation = try await store.createOrganisation(slug: slug, name: slug.uppercased())
            }
            let created = try await SCIMTokens(store: store, now: { Date() }).create(organisationID: organisation.id, name: name)
            return (token: created.token, organisationID: organisation.id)
        }
    }

    func revokeSCIMToken(organisationID: String, name: String = "test") async throws {
        let revoked = try await withStore { store in
            try await SCIMTokens(store: store, now: { Date() }).revoke(organisationID: organisationID, name: name)
        }
        #expect(revoked)
    }

    /// A SCIM request: `json` as `application/scim+json`, or `raw` with its own content type.
    func scim(
        _ method: HTTPMethod, _ path: String, token: String?, json: [String: Any]? = nil, raw: (contentType: String, body: Data)? = nil,
        headers: [(String, String)] = []
    ) async throws -> Reply {
        var all = headers + [("Accept", "application/scim+json")]
        if let token { all.append(("Authorization", "Bearer \(token)")) }
        let encoded: (contentType: String, body: Data)? = try json.map { (contentType: "application/scim+json", body: try JSONSerialization.data(withJSONObject: $0)) }
        let body = encoded ?? raw
        return try await send(path.hasPrefix("/scim/") ? path : "/scim/v2" + path, method: method, raw: body, headers: all)
    }

    /// Creates a user; returns its resource (the test fails unless the answer is 201).
    @discardableResult
    func scimCreate(_ user: [String: Any], token: String) async throws -> [String: Any] {
        let reply = try await scim(.POST, "/Users", token: token, json: user)
        #expect(reply.status == 201, "creating answered \(reply.status): \(reply.body.prefix(300))")
        return reply.json
    }

    /// A User resource for a create or a replace.
    static func scimUser(
        externalID: String, userName: String, given: String? = nil, family: String? = nil, email: String? = nil, phone: String? = nil,
        role: String? = nil, personnummer: String? = nil, active: Bool? = nil
    ) -> [String: Any] {
        var user: [String: Any] = ["schemas": [scimCore], "externalId": externalID, "userName": userName]
        var name: [String: Any] = [:]
        if let given { name["givenName"] = given }
        if let family { name["familyName"] = family }
        if !name.isEmpty { user["name"] = name }
        if let email { user["emails"] = [["value": email, "type": "work", "primary": true]] }
        if let phone { user["phoneNumbers"] = [["value": phone, "type": "mobile"]] }
        if let active { user["active"] = active }
        var membership: [String: Any] = [:]
        if let role { membership["role"] = role }
        if let personnummer { membership["personnummer"] = personnummer }
        if !membership.isEmpty {
            user["schemas"] = [scimCore, scimMembership]
            user[scimMembership] = membership
        }
        return user
    }

    static func scimPatch(_ operations: [[String: Any]]) -> [String: Any] {
        ["schemas": [scimPatchOp], "Operations": operations]
    }
}

extension LiveBroker.Reply {
    /// The membership extension of a User resource.
    var membership: [String: Any] { json[LiveBroker.scimMembership] as? [String: Any] ?? [:] }
    var version: String? { (json["meta"] as? [String: Any])?["version"] as? String }
    var resources: [[String: Any]] { json["Resources"] as? [[String: Any]] ?? [] }

    /// Nil when this is a SCIM error as RFC 7644 §3.12 shapes it (the Error schema, the status
    /// as a string equal to the HTTP status, a detail; `scimType` when one is expected), and a
    /// 4xx; else what is wrong.
    func scimProblem(status expected: Int, scimType: String? = nil) -> String? {
        if status != expected { return "\(status), not \(expected): \(body.prefix(300))" }
        if headers["content-type"]?.hasPrefix("application/scim+json") != true { return "content type \(headers["content-type"] ?? "none")" }
        if (json["schemas"] as? [String]) != [LiveBroker.scimError] { return "not a SCIM error: \(body.prefix(300))" }
        if json["status"] as? String != String(status) { return "status \(json["status"] ?? "none") in the body" }
        if (json["detail"] as? String ?? "").isEmpty { return "no detail" }
        if let scimType, json["scimType"] as? String != scimType { return "scimType \(json["scimType"] ?? "none"), not \(scimType): \(body.prefix(300))" }
        return nil
    }
}
