import Foundation
import PortvaktCore
import PortvaktDomain
import Testing
@testable import PortvaktServer
import PortvaktHTTP
import PortvaktModels

/// Issue 45: what the SCIM routes read from a request, without a server: filters, paging,
/// entity tags, PATCH operations and User bodies.
@Suite("SCIM request parsing (issue 45)")
struct SCIMParsingTests {
    @Test("Issue 45 item 1: filters: eq on userName, externalId and emails.value, names and operator in any case", arguments: [
        (#"userName eq "kari""#, DirectoryFilter.userName("kari")),
        (#"USERNAME EQ "Kari""#, .userName("Kari")),
        (#"  externalId  eq  "ext \"1\""  "#, .externalID(#"ext "1""#)),
        (#"emails.value eq "Kari@Example.NO""#, .email("kari@example.no")),
        (#"emails eq "kari@example.no""#, .email("kari@example.no")),
        (#"urn:ietf:params:scim:schemas:core:2.0:User:userName eq "1001""#, .userName("1001")),
    ] as [(String, DirectoryFilter)])
    func filters(text: String, expected: DirectoryFilter) throws {
        #expect(try SCIMFilter.parse(text) == expected)
    }

    @Test("Issue 45 item 1: any other filter is a 400 invalidFilter", arguments: [
        #"userName co "kari""#, #"userName sw "k""#, "userName pr", #"userName eq "a" or userName eq "b""#, #"emails[type eq "work"] eq "x""#,
        #"name.givenName eq "Kari""#, #"userName eq kari"#, #"userName eq "kari"#, "", #"userName eq "a" "b""#, "not a filter",
    ])
    func refusedFilters(text: String) {
        #expect(throws: SCIMError.self) { try SCIMFilter.parse(text) }
        #expect((try? SCIMFilter.parse(text)) == nil)
        do {
            _ = try SCIMFilter.parse(text)
        } catch let error as SCIMError {
            #expect(error.kind == .invalidFilter && error.status == .badRequest)
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("Issue 45 item 1: paging bounded as RFC 7644 §3.4.2.4 says", arguments: [
        (nil, nil, 1, 100), ("0", "0", 1, 0), ("-3", "-1", 1, 0), ("5", "5000", 5, 1000), ("2", "10", 2, 10),
        ("99999999999999999999999", "99999999999999999999999", SCIMPage.lastStartIndex, 1000), ("-99999999999999999999999", nil, 1, 100),
    ] as [(String?, String?, Int, Int)])
    func paging(startIndex: String?, count: String?, expectedStart: Int, expectedCount: Int) throws {
        let page = try SCIMPage(startIndex: startIndex, count: count)
        #expect(page.startIndex == expectedStart && page.count == expectedCount)
    }

    @Test("Issue 45 item 1: If-Match: weak and strong tags, lists and *; anything else matches nothing")
    func entityTags() {
        #expect(SCIMVersion.tag(3) == #"W/"3""#)
        #expect(SCIMVersion.condition(nil) == nil && SCIMVersion.condition(" ") == nil)
        #expect(SCIMVersion.condition(#"W/"3""#)?.matches(3) == true)
        #expect(SCIMVersion.condition(#""3""#)?.matches(3) == true)
        #expect(SCIMVersion.condition(#"W/"2", W/"3""#)?.matches(3) == true)
        #expect(SCIMVersion.condition("*")?.matches(17) == true)
        #expect(SCIMVersion.condition(#"W/"2""#)?.matches(3) == false)
        #expect(SCIMVersion.condition("garbage")?.matches(3) == false)
        #expect(throws: SCIMError.self) { try SCIMVersion.condition(#"W/"2""#)?.require(3) }
    }

    @Test("Issue 45 item 1: PATCH: add, replace and remove in any case, paths with the schema's URN, a value object without a path; applied in order")
    func patch() throws {
        let membership = SCIMUser.membershipSchema
        let body: [String: JSONValue] = [
            "schemas": .array([.string(SCIMPatch.schema)]),
            "operations": .array([
                .object(["op": .string("Replace"), "path": .string("urn:ietf:params:scim:schemas:core:2.0:User:name.givenName"), "value": .string("Kari")]),
                .object(["op": .string("add"), "path": .string("emails"), "value": .array([.object(["value": .string("kari@example.no"), "primary": .bool(true)])])]),
                .object(["op": .string("REMOVE"), "path": .string("\(membership):personnummer")]),
                .object(["op": .string("replace"), "value": .object(["active": .string("False"), membership: .object(["role": .string("org_admin")])])]),
                .object(["op": .string("remove"), "path": .string("phoneNumbers")]),
            ]),
        ]
        let patch = try SCIMPatch(body)
        var entry = MemberEntry(externalID: "e", userName: "u", givenName: "K", familyName: "Nordmann", phone: "+4790000001", memberNumber: "7")
        try patch.apply(to: &entry)
        #expect(entry.givenName == "Kari" && entry.familyName == "Nordmann" && entry.email == "kari@example.no")
        #expect(entry.personnummer == .remove && entry.active == false && entry.role == .orgAdmin && entry.phone == nil && entry.memberNumber == "7")
    }

    @Test("Issue 45 item 1: PATCH paths Portvakt does not have, value filters and its own attributes are refused before anything is applied", arguments: [
        ("nickName", SCIMError.Kind.invalidPath), (#"emails[type eq "work"].value"#, .invalidPath), ("name.middleName", .invalidPath),
        ("urn:example:ext:thing", .invalidPath), ("\(SCIMUser.membershipSchema):level", .invalidPath),
        ("id", .mutability), ("meta.version", .mutability), ("displayName", .mutability), ("\(SCIMUser.membershipSchema):personnummerOnRecord", .mutability),
    ] as [(String, SCIMError.Kind)])
    func refusedPaths(path: String, kind: SCIMError.Kind) {
        do {
            _ = try SCIMAttribute.path(path)
            Issue.record("\(path) was taken")
        } catch let error as SCIMError {
            #expect(error.kind == kind, "\(path): \(error.detail)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("Issue 45 item 1: a PUT replaces every attribute; active, role and the personnummer stay unless named; a null personnummer removes it")
    func replacement() throws {
        let current = MemberEntry(
            externalID: "e", userName: "u", givenName: "Kari", familyName: "Nordmann", email: "kari@example.no", phone: "+4790000001",
            role: .coordinator, active: false, memberNumber: "7", personnummer: .keep
        )
        let body: [String: JSONValue] = [
            "schemas": .array([.string(SCIMUser.schema)]), "externalId": .string("e"), "userName": .string("u"),
            "id": .string("ignored"), "meta": .object(["version": .string(#"W/"1""#)]), "displayName": .string("ignored"),
            "name": .object(["givenName": .string("Kari Anne"), "formatted": .string("ignored")]),
        ]
        let replaced = try SCIMUserBody.replacement(body, of: current)
        #expect(replaced.givenName == "Kari Anne" && replaced.familyName == nil && replaced.email == nil && replaced.phone == nil && replaced.memberNumber == nil)
        #expect(replaced.role == .coordinator && replaced.active == false && replaced.personnummer == .keep)

        var removing = body
        removing["schemas"] = .array([.string(SCIMUser.schema), .string(SCIMUser.membershipSchema)])
        removing[SCIMUser.membershipSchema] = .object(["personnummer": .null, "personnummerOnRecord": .bool(true)])
        #expect(try SCIMUserBody.replacement(removing, of: current).personnummer == .remove)
    }

    @Test("Issue 45 item 1: JSON is read strictly: a boolean is never a number, a number never a string")
    func strictJSON() throws {
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"a": true, "b": 1, "c": 1.5, "d": "1", "e": null, "f": [false], "g": {}}"#.utf8))
        #expect(decoded == .object([
            "a": .bool(true), "b": .integer(1), "c": .number(1.5), "d": .string("1"), "e": .null, "f": .array([.bool(false)]), "g": .object([:]),
        ]))
        let refused: [(SCIMAttribute, JSONValue)] = [
            (.active, .integer(1)), (.userName, .integer(1001)), (.role, .string("superuser")), (.personnummer, .integer(12_438_510_085)),
        ]
        for (attribute, value) in refused {
            var entry = MemberEntry(externalID: "e", userName: "u")
            do {
                try entry.scimSet(attribute, to: value)
                Issue.record("\(attribute) took \(value)")
            } catch let error as SCIMError {
                #expect(error.kind == .invalidValue)
            }
        }
    }

    @Test("Issue 45 item 1: discovery's documents are compiled in: two schemas, the User resource type, the personnummer write-only and never returned")
    func discoveryDocuments() throws {
        let schemas = SCIMDiscovery.schemas(baseURL: "https://portvakt.example")
        #expect(schemas.count == 2 && SCIMDiscovery.resourceTypes(baseURL: "https://portvakt.example").count == 1)
        let membership = try #require(SCIMDiscovery.schema(SCIMUser.membershipSchema.uppercased(), baseURL: "https://portvakt.example"))
        guard case .object(let object) = membership, case .array(let attributes)? = object["attributes"],
              case .object(let meta)? = object["meta"]
        else { Issue.record("not an object with attributes"); return }
        #expect(meta["location"] == .string("https://portvakt.example/scim/v2/Schemas/\(SCIMUser.membershipSchema)"))
        let described = attributes.compactMap { value -> [String: JSONValue]? in
            guard case .object(let attribute) = value else { return nil }
            return attribute
        }
        let attribute = try #require(described.first { $0["name"] == .string("personnummer") })
        #expect(attribute["mutability"] == .string("writeOnly") && attribute["returned"] == .string("never"))
        guard case .object(let config) = SCIMDiscovery.serviceProviderConfig(baseURL: "https://portvakt.example") else { Issue.record("no config"); return }
        #expect(config["etag"] == .object(["supported": .bool(true)]) && config["patch"] == .object(["supported": .bool(true)]))
    }

    @Test("Issue 45 item 1: a new user: the role is peer_mentor unless named, externalId and userName are required, one email kept of several only when one is primary")
    func newEntry() throws {
        let base: [String: JSONValue] = ["schemas": .array([.string(SCIMUser.schema)]), "externalId": .string("e"), "userName": .string("u")]
        let plain = try SCIMUserBody.newEntry(base)
        #expect(plain.role == .peerMentor && plain.active && plain.personnummer == .keep)

        var emails = base
        emails["emails"] = .array([
            .object(["value": .string("a@example.no"), "type": .string("home")]),
            .object(["value": .string("b@example.no"), "type": .string("work"), "primary": .bool(true)]),
        ])
        #expect(try SCIMUserBody.newEntry(emails).email == "b@example.no")

        var withoutExternalID = base
        withoutExternalID["externalId"] = nil
        var withoutUserName = base
        withoutUserName["userName"] = nil
        var numberForUserName = base
        numberForUserName["userName"] = .integer(1001)
        for body in [withoutExternalID, withoutUserName, numberForUserName] {
            #expect((try? SCIMUserBody.newEntry(body)) == nil, "\(body)")
        }
    }
}
