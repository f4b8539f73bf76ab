import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels

/// The User resource (RFC 7643 §4.1) as Portvakt shows a member record: its id, the member
/// system's `externalId`, `userName`, `name`, one email, one phone, `active`, and the membership
/// extension with the role and `personnummerOnRecord`. Never the personnummer itself: it is
/// write-only (`returned: never`).
enum SCIMUser {
    static let schema = "urn:ietf:params:scim:schemas:core:2.0:User"
    static let membershipSchema = "urn:portvakt:params:scim:schemas:extension:membership:2.0:User"
    static let path = "/scim/v2/Users"

    static func location(of id: String, baseURL: String) -> String {
        baseURL + path + "/" + id
    }

    static func resource(_ member: DirectoryMember, baseURL: String) -> JSONValue {
        var name: [String: JSONValue] = [:]
        if !member.fullName.isEmpty { name["formatted"] = .string(member.fullName) }
        if let given = member.givenName { name["givenName"] = .string(given) }
        if let family = member.familyName { name["familyName"] = .string(family) }

        var membership: [String: JSONValue] = [
            "role": .string(member.role.rawValue), "personnummerOnRecord": .bool(member.personnummerOnRecord),
        ]
        if let number = member.memberNumber { membership["memberNumber"] = .string(number) }

        var resource: [String: JSONValue] = [
            "schemas": .array([.string(schema), .string(membershipSchema)]),
            "id": .string(member.id),
            "active": .bool(member.active),
            membershipSchema: .object(membership),
            "meta": .object([
                "resourceType": .string("User"),
                "created": .string(member.createdAt.formatted(.iso8601)),
                "lastModified": .string(member.updatedAt.formatted(.iso8601)),
                "location": .string(location(of: member.id, baseURL: baseURL)),
                "version": .string(SCIMVersion.tag(member.version)),
            ]),
        ]
        if let external = member.externalID { resource["externalId"] = .string(external) }
        if let userName = member.userName { resource["userName"] = .string(userName) }
        if !name.isEmpty { resource["name"] = .object(name) }
        if !member.fullName.isEmpty { resource["displayName"] = .string(member.fullName) }
        if let email = member.email { resource["emails"] = primary(email, type: "work") }
        if let phone = member.phone { resource["phoneNumbers"] = primary(phone, type: "mobile") }
        return .object(resource)
    }

    /// A multi-valued attribute holding Portvakt's one value, marked primary.
    private static func primary(_ value: String, type: String) -> JSONValue {
        .array([.object(["value": .string(value), "type": .string(type), "primary": .bool(true)])])
    }
}

/// `meta.version` and the `ETag` (RFC 7644 §3.14): the record's version as a weak entity tag.
enum SCIMVersion {
    static func tag(_ version: Int) -> String {
        "W/\"\(version)\""
    }

    /// What an `If-Match` or `If-None-Match` header names: any version (`*`), or these.
    struct Condition: Sendable, Equatable {
        let any: Bool
        let versions: Set<Int>

        func matches(_ version: Int) -> Bool {
            any || versions.contains(version)
        }

        /// `If-Match`: 412 unless the record is at a named version.
        func require(_ version: Int) throws {
            guard matches(version) else { throw SCIMError.preconditionFailed(current: version) }
        }
    }

    /// The condition in `header` (a list of entity tags, weak or strong, or `*`); a tag that is
    /// not one of Portvakt's versions matches nothing. Nil without the header.
    static func condition(_ header: String?) -> Condition? {
        guard let header, !header.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        var any = false
        var versions: Set<Int> = []
        for item in header.split(separator: ",") {
            var tag = item.trimmingCharacters(in: .whitespaces)
            if tag == "*" { any = true; continue }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            guard tag.count >= 2, tag.hasPrefix("\""), tag.hasSuffix("\""), let version = Int(tag.dropFirst().dropLast()) else { continue }
            versions.insert(version)
        }
        return Condition(any: any, versions: versions)
    }
}
