import Foundation
import NIOHTTP1
import PortvaktCore
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Issue 45: the member systems keep Portvakt's member records over SCIM 2.0 (RFC 7643/7644),
/// each with a token of its own organisation; a record they end ends the membership.
@Suite("SCIM for the member systems (issue 45)")
struct SCIMTests {
    /// Kari and Una of the sandbox: their personnummer as BankID gives them.
    static let kariNumber = "12438510085"
    static let unaNumber = "26449933086"

    @Test("Issue 45 item 1: a member system creates Kari in FFO with her personnummer; the answer never shows it, and her BankID login lands on that record", arguments: TestDatabase.kinds)
    func createdRecordIsLoggedInto(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let ffo = try await broker.scimToken(organisation: "ffo")
            let reply = try await broker.scim(.POST, "/Users", token: ffo.token, json: LiveBroker.scimUser(
                externalID: "ffo-1001", userName: "1001", given: "Kari", family: "Nordmann", email: "Kari.Nordmann@Example.no",
                phone: "+47 900 00 001", role: "coordinator", personnummer: Self.kariNumber
            ))
            #expect(reply.status == 201, "\(reply.body.prefix(300))")
            #expect(reply.headers["content-type"]?.hasPrefix("application/scim+json") == true)
            let id = try #require(reply.string("id"))
            let meta = reply.json["meta"] as? [String: Any] ?? [:]
            #expect(reply.location == broker.baseURL + "/scim/v2/Users/" + id)
            #expect(meta["location"] as? String == reply.location && meta["resourceType"] as? String == "User")
            #expect(reply.headers["etag"] == reply.version && reply.version == #"W/"1""#)
            #expect(reply.string("userName") == "1001" && reply.string("externalId") == "ffo-1001")
            #expect(reply.membership["role"] as? String == "coordinator" && reply.membership["personnummerOnRecord"] as? Bool == true)
            #expect(((reply.json["emails"] as? [[String: Any]])?.first?["value"] as? String) == "kari.nordmann@example.no")
            #expect(((reply.json["phoneNumbers"] as? [[String: Any]])?.first?["value"] as? String) == "+4790000001")
            #expect(!reply.body.contains(Self.kariNumber) && reply.membership["personnummer"] == nil)

            let read = try await broker.scim(.GET, "/Users/\(id)", token: ffo.token)
            #expect(read.status == 200 && read.string("id") == id && read.version == reply.version)
            #expect(!read.body.contains(Self.kariNumber) && read.membership["personnummerOnRecord"] as? Bool == true)

            let kari = try await broker.bankIDLogin("kari")
            let userID = try await broker.userID(token: kari.access)
            let linked = try await broker.withStore { store in try await store.memberships(userID: userID).compactMap(\.memberRecordId) }
            #expect(linked.contains(id), "Kari's BankID login is linked to the record the member system created")
            #expect(!broker.logs.text.contains(Self.kariNumber) && !broker.logs.text.contains(ffo.token))
        }
    }

    @Test("Issue 45 item 1: filters on userName (any case), externalId and emails.value, and paging bounded as RFC 7644 says; another organisation's members never listed", arguments: TestDatabase.kinds)
    func filterAndPaging(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let ffo = try await broker.scimToken(organisation: "ffo")
            let hlf = try await broker.scimToken(organisation: "hlf")
            for number in 1...3 {
                try await broker.scimCreate(LiveBroker.scimUser(externalID: "ext-\(number)", userName: "member.\(number)", email: "member\(number)@example.no"), token: ffo.token)
            }
            try await broker.scimCreate(LiveBroker.scimUser(externalID: "ext-1", userName: "member.1"), token: hlf.token)

            func list(_ query: String) async throws -> LiveBroker.Reply {
                try await broker.scim(.GET, "/Users?" + query, token: ffo.token)
            }
            func filter(_ text: String) -> String { "filter=" + FormFields.encode(text) }
            for (query, userName) in [
                (filter(#"userName eq "MEMBER.2""#), "member.2"), (filter(#"UserName EQ "member.3""#), "member.3"),
                (filter(#"externalId eq "ext-1""#), "member.1"), (filter(#"emails.value eq "Member3@Example.no""#), "member.3"),
                (filter(#"urn:ietf:params:scim:schemas:core:2.0:User:userName eq "member.1""#), "member.1"),
            ] {
                let reply = try await list(query)
                #expect(reply.status == 200 && reply.json["totalResults"] as? Int == 1, "\(query): \(reply.body.prefix(300))")
                #expect(reply.resources.first?["userName"] as? String == userName, "\(query)")
            }
            let none = try await list(filter(#"userName eq "nobody""#))
            #expect(none.json["totalResults"] as? Int == 0 && none.resources.isEmpty)

            let all = try await list("")
            #expect(all.json["totalResults"] as? Int == 3, "only FFO's three: \(all.body.prefix(300))")
            #expect((all.json["schemas"] as? [String]) == ["urn:ietf:params:scim:api:messages:2.0:ListResponse"])
            for (query, startIndex, items) in [
                ("count=2", 1, 2), ("startIndex=3&count=2", 3, 1), ("startIndex=0&count=1", 1, 1), ("startIndex=-4", 1, 3),
                ("count=-5", 1, 0), ("count=5000", 1, 3), ("startIndex=9", 9, 0), ("count=99999999999999999999999", 1, 3),
            ] {
                let reply = try await list(query)
                #expect(reply.status == 200, "\(query): \(reply.body.prefix(200))")
                #expect(reply.json["totalResults"] as? Int == 3 && reply.json["startIndex"] as? Int == startIndex, "\(query): \(reply.body.prefix(200))")
                #expect(reply.json["itemsPerPage"] as? Int == items && reply.resources.count == items, "\(query)")
                #expect(reply.json["Resources"] != nil, "\(query): Resources is always there")
            }

            for refused in [#"userName co "member""#, #"userName eq "member.1" and externalId eq "ext-1""#, #"title eq "x""#, #"emails[value eq "x"]"#, "userName eq member.1"] {
                let reply = try await list(filter(refused))
                #expect(reply.scimProblem(status: 400, scimType: "invalidFilter") == nil, "\(refused): \(reply.scimProblem(status: 400, scimType: "invalidFilter") ?? "")")
            }
            let badCount = try await list("count=many")
            #expect(badCount.scimProblem(status: 400, scimType: "invalidValue") == nil)
        }
    }

    @Test("Issue 45 item 1: PUT and PATCH honour If-Match (412 for a stale version, nothing written); PATCH takes add, replace and remove in any case, with and without a path", arguments: TestDatabase.kinds)
    func replaceAndPatch(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let ffo = try await broker.scimToken(organisation: "ffo")
            let created = try await broker.scimCreate(LiveBroker.scimUser(
                externalID: "ffo-7", userName: "7", given: "Per", family: "Hansen", email: "per@example.no", role: "peer_mentor"
            ), token: ffo.token)
            let id = try #require(created["id"] as? String)
            var replacement = LiveBroker.scimUser(externalID: "ffo-7", userName: "7", given: "Per Olav", family: "Hansen")
            replacement["id"] = id
            replacement["meta"] = created["meta"]

            let put = try await broker.scim(.PUT, "/Users/\(id)", token: ffo.token, json: replacement, headers: [("If-Match", #"W/"1""#)])
            #expect(put.status == 200 && put.version == #"W/"2""# && put.headers["etag"] == #"W/"2""#, "\(put.body.prefix(300))")
            #expect((put.json["name"] as? [String: Any])?["givenName"] as? String == "Per Olav")
            #expect(put.json["emails"] == nil, "a PUT clears what it leaves out")
            #expect(put.membership["role"] as? String == "peer_mentor", "and keeps the role")

            replacement["name"] = ["givenName": "Stale"]
            let stale = try await broker.scim(.PUT, "/Users/\(id)", token: ffo.token, json: replacement, headers: [("If-Match", #"W/"1""#)])
            #expect(stale.scimProblem(status: 412) == nil, "\(stale.scimProblem(status: 412) ?? "")")
            let stalePatch = try await broker.scim(.PATCH, "/Users/\(id)", token: ffo.token, json: LiveBroker.scimPatch([
                ["op": "replace", "path": "active", "value": false],
            ]), headers: [("If-Match", #"W/"1""#)])
            #expect(stalePatch.scimProblem(status: 412) == nil)
            let unchanged = try await broker.scim(.GET, "/Users/\(id)", token: ffo.token)
            #expect(unchanged.version == #"W/"2""# && (unchanged.json["name"] as? [String: Any])?["givenName"] as? String == "Per Olav")
            #expect(unchanged.json["active"] as? Bool == true)
            let notModified = try await broker.scim(.GET, "/Users/\(id)", token: ffo.token, headers: [("If-None-Match", #"W/"2""#)])
            #expect(notModified.status == 304 && notModified.headers["etag"] == #"W/"2""#)

            let patched = try await broker.scim(.PATCH, "/Users/\(id)", token: ffo.token, json: LiveBroker.scimPatch([
                ["op": "Replace", "path": "name.givenName", "value": "Pål"],
                ["op": "ADD", "path": "emails", "value": [["value": "pal@example.no", "primary": true]]],
                ["op": "add", "path": "phoneNumbers", "value": [["value": "+4791234567", "type": "mobile"]]],
                ["op": "replace", "path": "\(LiveBroker.scimMembership):role", "value": "coordinator"],
            ]), headers: [("If-Match", #"W/"2""#)])
            #expect(patched.status == 200 && patched.version == #"W/"3""#, "\(patched.body.prefix(300))")
            #expect((patched.json["name"] as? [String: Any])?["givenName"] as? String == "Pål")
            #expect(((patched.json["emails"] as? [[String: Any]])?.first?["value"] as? String) == "pal@example.no")
            #expect(patched.membership["role"] as? String == "coordinator")

            // Without a path the value is an object of attributes; a complex one keeps the sub-attributes it does not name.
            let merged = try await broker.scim(.PATCH, "/Users/\(id)", token: ffo.token, json: LiveBroker.scimPatch([
                ["op": "replace", "value": ["name": ["familyName": "Olsen"], LiveBroker.scimMembership: ["role": "org_admin"]]],
                ["op": "remove", "path": "phoneNumbers"],
            ]))
            #expect(merged.status == 200 && merged.version == #"W/"4""#, "\(merged.body.prefix(300))")
            let name = merged.json["name"] as? [String: Any] ?? [:]
            #expect(name["givenName"] as? String == "Pål" && name["familyName"] as? String == "Olsen")
            #expect(merged.membership["role"] as? String == "org_admin" && merged.json["phoneNumbers"] == nil)

            // Refused whole: nothing of an operation list with one bad operation is written.
            for (operations, scimType) in [
                ([["op": "replace", "path": "name.givenName", "value": "Never"], ["op": "replace", "path": #"emails[type eq "work"].value"#, "value": "x@example.no"]], "invalidPath"),
                ([["op": "replace", "path": "nickName", "value": "Pelle"]], "invalidPath"),
                ([["op": "remove"]], "noTarget"),
                ([["op": "replace", "path": "id", "value": "other"]], "mutability"),
                ([["op": "move", "path": "active", "value": true]], "invalidValue"),
                ([["op": "replace", "path": "\(LiveBroker.scimMembership):role", "value": "superuser"]], "invalidValue"),
            ] as [([[String: Any]], String)] {
                let reply = try await broker.scim(.PATCH, "/Users/\(id)", token: ffo.token, json: LiveBroker.scimPatch(operations))
                #expect(reply.scimProblem(status: 400, scimType: scimType) == nil, "\(operations): \(reply.scimProblem(status: 400, scimType: scimType) ?? "")")
            }
            let after = try await broker.scim(.GET, "/Users/\(id)", token: ffo.token)
            #expect(after.version == #"W/"4""# && (after.json["name"] as? [String: Any])?["givenName"] as? String == "Pål")
        }
    }

    @Test("Issue 45 item 2: active false from the member system ends Una's refresh token and her next login says not_registered; active true lets her in again; DELETE ends the record", arguments: TestDatabase.kinds)
    func leaving(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let ffo = try await broker.scimToken(organisation: "ffo")
            let una = try await broker.scimCreate(LiveBroker.scimUser(
                externalID: "ffo-una", userName: "una@example.no", given: "Una", family: "Utenfor", role: "org_admin", personnummer: Self.unaNumber
            ), token: ffo.token)
            let id = try #require(una["id"] as? String)

            let session = try await broker.bankIDLogin("una")
            let rotated = try await broker.refresh(session.refresh)
            #expect(rotated.status == 200, "\(rotated.body)")
            let refresh = try #require(rotated.string("refresh_token"))

            let ended = try await broker.scim(.PATCH, "/Users/\(id)", token: ffo.token, json: LiveBroker.scimPatch([
                ["op": "replace", "path": "active", "value": false],
            ]))
            #expect(ended.status == 200 && ended.json["active"] as? Bool == false, "\(ended.body.prefix(300))")
            let refused = try await broker.refresh(refresh)
            #expect(refused.status == 400 && refused.string("error") == "invalid_grant", "Una's session ended with her last membership: \(refused.body)")
            let (again, _) = try await broker.providerLogin(AppLogin(), provider: "bankid", user: "una")
            #expect(again.error == "access_denied" && again.messageID == "not_registered", "\(again.fields)")

            // Azure's way of saying it: a string, in a PATCH without a path.
            let back = try await broker.scim(.PATCH, "/Users/\(id)", token: ffo.token, json: LiveBroker.scimPatch([
                ["op": "Replace", "value": ["active": "True"]],
            ]))
            #expect(back.status == 200 && back.json["active"] as? Bool == true, "\(back.body.prefix(300))")
            let returned = try await broker.tokens(provider: "bankid", user: "una")
            #expect(returned["access_token"] != nil, "the record is hers again")

            let staleDelete = try await broker.scim(.DELETE, "/Users/\(id)", token: ffo.token, headers: [("If-Match", #"W/"1""#)])
            #expect(staleDelete.scimProblem(status: 412) == nil)
            let deleted = try await broker.scim(.DELETE, "/Users/\(id)", token: ffo.token)
            #expect(deleted.status == 204 && deleted.body.isEmpty)
            #expect(try await broker.scim(.GET, "/Users/\(id)", token: ffo.token).scimProblem(status: 404) == nil)
            #expect(try await broker.scim(.DELETE, "/Users/\(id)", token: ffo.token).scimProblem(status: 404) == nil)
            let records = try await broker.withStore { store in try await store.memberRecords(organisationID: ffo.organisationID).map(\.id) }
            #expect(!records.contains(id))
            let (gone, _) = try await broker.providerLogin(AppLogin(), provider: "bankid", user: "una")
            #expect(gone.messageID == "not_registered")
        }
    }
}
