import Foundation
import NIOHTTP1
import PortvaktCore
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Issue 45: bad input is a SCIM 4xx that says what is wrong and writes nothing; a token reaches
/// its own organisation only; discovery describes what Portvakt keeps.
@Suite("SCIM refusals and access (issue 45)")
struct SCIMAccessTests {
    @Test("Issue 45 item 1: malformed JSON, unknown attributes, a 10 MB body, an invalid personnummer, an unknown role, a PATCH path that does not exist: each a SCIM 4xx with a detail, nothing written", arguments: TestDatabase.kinds)
    func badInput(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let ffo = try await broker.scimToken(organisation: "ffo")
            let existing = try await broker.scimCreate(LiveBroker.scimUser(externalID: "ffo-1", userName: "1", given: "Ola"), token: ffo.token)
            let id = try #require(existing["id"] as? String)
            let valid = LiveBroker.scimUser(externalID: "ffo-2", userName: "2")
            func with(_ changes: [String: Any]) -> [String: Any] { valid.merging(changes) { $1 } }
            func json(_ value: Any) -> (contentType: String, body: Data) {
                ("application/scim+json", (try? JSONSerialization.data(withJSONObject: value)) ?? Data())
            }
            let tenMegabytes = Data(("{\"userName\":\"" + String(repeating: "x", count: 10 * 1024 * 1024) + "\"}").utf8)
            let membership = LiveBroker.scimMembership

            let cases: [(name: String, method: HTTPMethod, path: String, body: (contentType: String, body: Data), status: Int, scimType: String?, mentions: String?)] = [
                ("malformed JSON", .POST, "/Users", ("application/scim+json", Data(#"{"schemas": ["#.utf8)), 400, "invalidSyntax", nil),
                ("a JSON array", .POST, "/Users", ("application/json", Data("[]".utf8)), 400, "invalidSyntax", nil),
                ("an empty body", .POST, "/Users", ("application/scim+json", Data()), 400, "invalidSyntax", nil),
                ("an unknown attribute", .POST, "/Users", json(with(["nickName": "Babs"])), 400, "invalidValue", "nickName"),
                ("an unknown schema", .POST, "/Users", json(with(["schemas": [LiveBroker.scimCore, "urn:example:schema"]])), 400, "invalidValue", "urn:example:schema"),
                ("no schemas", .POST, "/Users", json(valid.filter { $0.key != "schemas" }), 400, "invalidValue", "schemas"),
                ("the extension not listed", .POST, "/Users", json(with([membership: ["role": "coordinator"]])), 400, "invalidValue", membership),
                ("an unknown extension attribute", .POST, "/Users", json(with(["schemas": [LiveBroker.scimCore, membership], membership: ["level": 3]])), 400, "invalidValue", "level"),
                ("a name given twice", .POST, "/Users", ("application/scim+json", Data(#"{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"externalId":"x","userName":"a","USERNAME":"b"}"#.utf8)), 400, "invalidSyntax", nil),
                ("no externalId", .POST, "/Users", json(valid.filter { $0.key != "externalId" }), 400, "invalidValue", "externalId"),
                ("a number for active", .POST, "/Users", json(with(["active": 1])), 400, "invalidValue", "active"),
                ("a control character", .POST, "/Users", json(with(["userName": "a\u{0}b"])), 400, "invalidValue", "userName"),
                ("a 10 MB body", .POST, "/Users", ("application/scim+json", tenMegabytes), 413, nil, nil),
                ("text, not JSON", .POST, "/Users", ("text/plain", Data("userName=x".utf8)), 415, nil, nil),
                ("an invalid personnummer", .POST, "/Users", json(LiveBroker.scimUser(externalID: "ffo-3", userName: "3", personnummer: "12345678901")), 400, "invalidValue", "personnummer"),
                ("a role that does not exist", .POST, "/Users", json(LiveBroker.scimUser(externalID: "ffo-4", userName: "4", role: "superuser")), 400, "invalidValue", "role"),
                ("two emails, neither primary", .POST, "/Users", json(with(["emails": [["value": "a@example.no"], ["value": "b@example.no"]]])), 400, "invalidValue", "emails"),
                ("a taken userName", .POST, "/Users", json(LiveBroker.scimUser(externalID: "ffo-5", userName: "1")), 409, "uniqueness", nil),
                ("a taken externalId", .POST, "/Users", json(LiveBroker.scimUser(externalID: "ffo-1", userName: "5")), 409, "uniqueness", nil),
                ("a PATCH path that does not exist", .PATCH, "/Users/\(id)", json(LiveBroker.scimPatch([["op": "replace", "path": "nickName", "value": "x"]])), 400, "invalidPath", "nickName"),
                ("a PATCH of another message", .PATCH, "/Users/\(id)", json(["schemas": [LiveBroker.scimCore], "Operations": []]), 400, "invalidValue", nil),
                ("a PUT of an unknown attribute", .PUT, "/Users/\(id)", json(LiveBroker.scimUser(externalID: "ffo-1", userName: "1").merging(["title": "Boss"]) { $1 }), 400, "invalidValue", "title"),
                ("a PUT of a 10 MB body", .PUT, "/Users/\(id)", ("application/scim+json", tenMegabytes), 413, nil, nil),
            ]
            for test in cases {
                let reply = try await broker.scim(test.method, test.path, token: ffo.token, raw: test.body)
                #expect(reply.scimProblem(status: test.status, scimType: test.scimType) == nil, "\(test.name): \(reply.scimProblem(status: test.status, scimType: test.scimType) ?? "")")
                if let mentions = test.mentions {
                    #expect((reply.json["detail"] as? String)?.contains(mentions) == true, "\(test.name): the detail names \(mentions): \(reply.json["detail"] ?? "")")
                }
                #expect(!reply.body.contains("12345678901"), "\(test.name): a personnummer is never quoted back")
            }

            let list = try await broker.scim(.GET, "/Users", token: ffo.token)
            #expect(list.json["totalResults"] as? Int == 1, "nothing was written: \(list.body.prefix(300))")
            let unchanged = try await broker.scim(.GET, "/Users/\(id)", token: ffo.token)
            #expect(unchanged.version == #"W/"1""# && unchanged.string("userName") == "1")
            #expect(!broker.logs.text.contains(ffo.token), "the token is never logged")
        }
    }

    @Test("Issue 45 item 1: a token of one organisation gets 404 for another's record and never lists it; no token, an app's token, a portal session and a revoked token get 401", arguments: TestDatabase.kinds)
    func oneOrganisationPerToken(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let ffo = try await broker.scimToken(organisation: "ffo")
            let hlf = try await broker.scimToken(organisation: "hlf")
            let record = try await broker.scimCreate(LiveBroker.scimUser(externalID: "ffo-9", userName: "9", given: "Kari"), token: ffo.token)
            let id = try #require(record["id"] as? String)

            let put = LiveBroker.scimUser(externalID: "ffo-9", userName: "9", given: "Taken")
            let patch = LiveBroker.scimPatch([["op": "replace", "path": "active", "value": false]])
            for (method, body) in [(HTTPMethod.GET, nil), (.PUT, put), (.PATCH, patch), (.DELETE, nil)] as [(HTTPMethod, [String: Any]?)] {
                let reply = try await broker.scim(method, "/Users/\(id)", token: hlf.token, json: body)
                #expect(reply.scimProblem(status: 404) == nil, "\(method) as HLF: \(reply.scimProblem(status: 404) ?? "")")
            }
            let hlfList = try await broker.scim(.GET, "/Users?filter=" + FormFields.encode(#"externalId eq "ffo-9""#), token: hlf.token)
            #expect(hlfList.status == 200 && hlfList.json["totalResults"] as? Int == 0)
            let still = try await broker.scim(.GET, "/Users/\(id)", token: ffo.token)
            #expect(still.status == 200 && still.version == #"W/"1""# && still.json["active"] as? Bool == true)

            let app = try await broker.bankIDLogin("ingrid").access
            let portal = try await PortalTests.signIn(broker, person: "ingrid", method: "bankid").cookie
            for (name, headers) in [
                ("no token", []), ("an app's access token", [("Authorization", "Bearer \(app)")]), ("a portal session", [("Cookie", portal)]),
                ("a made-up token", [("Authorization", "Bearer pvscim_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")]),
                ("Basic credentials", [("Authorization", "Basic \(Data("ffo:\(ffo.token)".utf8).base64EncodedString())")]),
            ] as [(String, [(String, String)])] {
                for path in ["/Users", "/Users/\(id)", "/ServiceProviderConfig"] {
                    let reply = try await broker.scim(.GET, path, token: nil, headers: headers)
                    #expect(reply.scimProblem(status: 401) == nil, "\(name) at \(path): \(reply.scimProblem(status: 401) ?? "")")
                    #expect(reply.headers["www-authenticate"]?.hasPrefix("Bearer") == true, "\(name) at \(path)")
                }
            }
            try await broker.revokeSCIMToken(organisationID: ffo.organisationID)
            let revoked = try await broker.scim(.GET, "/Users/\(id)", token: ffo.token)
            #expect(revoked.scimProblem(status: 401) == nil, "a revoked token: \(revoked.scimProblem(status: 401) ?? "")")
            let create = try await broker.scim(.POST, "/Users", token: ffo.token, json: LiveBroker.scimUser(externalID: "ffo-10", userName: "10"))
            #expect(create.scimProblem(status: 401) == nil)
        }
    }

    @Test("Issue 45 item 1: discovery: ServiceProviderConfig, the User resource type with the membership extension, and the schemas, the personnummer write-only and never returned")
    func discovery() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let nhf = try await broker.scimToken(organisation: "nhf")
            let config = try await broker.scim(.GET, "/ServiceProviderConfig", token: nhf.token)
            #expect(config.status == 200 && config.headers["content-type"]?.hasPrefix("application/scim+json") == true)
            #expect((config.json["patch"] as? [String: Any])?["supported"] as? Bool == true)
            #expect((config.json["etag"] as? [String: Any])?["supported"] as? Bool == true)
            #expect((config.json["filter"] as? [String: Any])?["maxResults"] as? Int == 1000)
            #expect((config.json["meta"] as? [String: Any])?["location"] as? String == broker.baseURL + "/scim/v2/ServiceProviderConfig")

            let types = try await broker.scim(.GET, "/ResourceTypes", token: nhf.token)
            let user = try #require(types.resources.first)
            #expect(types.json["totalResults"] as? Int == 1 && user["endpoint"] as? String == "/Users")
            #expect(((user["schemaExtensions"] as? [[String: Any]])?.first?["schema"] as? String) == LiveBroker.scimMembership)
            #expect(try await broker.scim(.GET, "/ResourceTypes/User", token: nhf.token).string("id") == "User")

            let schemas = try await broker.scim(.GET, "/Schemas", token: nhf.token)
            #expect(Set(schemas.resources.compactMap { $0["id"] as? String }) == [LiveBroker.scimCore, LiveBroker.scimMembership])
            let extensionSchema = try await broker.scim(.GET, "/Schemas/\(LiveBroker.scimMembership)", token: nhf.token)
            let attributes = extensionSchema.json["attributes"] as? [[String: Any]] ?? []
            let personnummer = try #require(attributes.first { $0["name"] as? String == "personnummer" })
            #expect(personnummer["mutability"] as? String == "writeOnly" && personnummer["returned"] as? String == "never")
            #expect(attributes.contains { $0["name"] as? String == "role" } && attributes.contains { $0["name"] as? String == "personnummerOnRecord" })
            #expect(try await broker.scim(.GET, "/Schemas/urn:example:nothing", token: nhf.token).scimProblem(status: 404) == nil)
        }
    }
}
