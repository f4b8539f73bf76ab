import Foundation
import PortvaktModels
import PortvaktTestSupport
import Testing

/// The SCIM routes' column of the authorization matrix (issue 45, ``ExpectedAccess/memberSystemCallers``):
/// the callers' headers, NHF's record the routes name, and the body each route is sent.
struct SCIMMatrixCallers: Sendable {
    struct Caller: Sendable {
        let name: String
        let headers: [(String, String)]
    }

    let callers: [Caller]
    /// NHF's token, which makes a record for each DELETE.
    let nhfToken: String
    /// An NHF record made by NHF's member system, which GET, PUT and PATCH name.
    let record: String

    /// - Parameters:
    ///   - appToken: a person's access token (Ingrid after BankID).
    ///   - portalCookie: a person's portal session (Ingrid after BankID).
    static func make(_ broker: LiveBroker, appToken: [(String, String)], portalCookie: String) async throws -> SCIMMatrixCallers {
        let hlf = try await broker.scimToken(organisation: "hlf", name: "matrix")
        let nhf = try await broker.scimToken(organisation: "nhf", name: "matrix")
        let revoked = try await broker.scimToken(organisation: "nhf", name: "matrix-revoked")
        try await broker.revokeSCIMToken(organisationID: revoked.organisationID, name: "matrix-revoked")
        let record = try await broker.scimCreate(LiveBroker.scimUser(externalID: "matrix-record", userName: "matrix-record"), token: nhf.token)
        let recordID = try #require(record["id"] as? String)
        func bearer(_ token: String) -> [(String, String)] { [("Authorization", "Bearer \(token)")] }
        return SCIMMatrixCallers(
            callers: [
                Caller(name: "nobody", headers: []),
                Caller(name: "Ingrid (BankID now)", headers: appToken),
                Caller(name: "Ingrid's portal session (BankID now)", headers: [("Cookie", portalCookie)]),
                Caller(name: "HLF's member system", headers: bearer(hlf.token)),
                Caller(name: "NHF's member system", headers: bearer(nhf.token)),
                Caller(name: "NHF's revoked member-system token", headers: bearer(revoked.token)),
            ],
            nhfToken: nhf.token, record: recordID
        )
    }

    /// The path and body `route` is called with: a body that passes every check but the
    /// caller's. A DELETE names a record made for it alone (NHF's), so that the record the other
    /// routes name stays whatever order the matrix calls them in.
    func request(for route: String, _ broker: LiveBroker) async throws -> (path: String, body: (contentType: String, body: Data)?) {
        let parts = route.split(separator: " ", maxSplits: 1).map(String.init)
        let unique = UUID().uuidString.lowercased()
        var path = parts[1]
        var body: [String: Any]?
        switch route {
        case "GET /scim/v2/ResourceTypes/{id}": path = path.replacingOccurrences(of: "{id}", with: "User")
        case "GET /scim/v2/Schemas/{id}": path = path.replacingOccurrences(of: "{id}", with: LiveBroker.scimCore)
        case "POST /scim/v2/Users": body = LiveBroker.scimUser(externalID: "matrix-\(unique)", userName: "matrix-\(unique)")
        case "PUT /scim/v2/Users/{id}": body = LiveBroker.scimUser(externalID: "matrix-record", userName: "matrix-record", given: "Matrix")
        case "PATCH /scim/v2/Users/{id}": body = LiveBroker.scimPatch([["op": "replace", "path": "name.givenName", "value": "Matrix"]])
        case "DELETE /scim/v2/Users/{id}":
            let own = try await broker.scimCreate(LiveBroker.scimUser(externalID: "matrix-\(unique)", userName: "matrix-\(unique)"), token: nhfToken)
            let ownID = try #require(own["id"] as? String)
            path = path.replacingOccurrences(of: "{id}", with: ownID)
        default: break
        }
        path = path.replacingOccurrences(of: "{id}", with: record)
        let encoded: (contentType: String, body: Data)? = try body.map { (contentType: "application/scim+json", body: try JSONSerialization.data(withJSONObject: $0)) }
        return (path, encoded)
    }
}
