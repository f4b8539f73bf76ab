import Foundation
import PortvaktDomain
import PortvaktHTTP

/// A User resource in a request: a POST's new member, a PUT's replacement, or a PATCH
/// operation's value without a path. Read strictly: an attribute Portvakt does not keep is a 400
/// `invalidValue` naming it, and a resource's `schemas` must list the User schema (and the
/// membership extension when its attributes are sent). Attributes Portvakt sets (`id`, `meta`,
/// `displayName`, `name.formatted`, `personnummerOnRecord`) may come back as they were read, and
/// are ignored.
enum SCIMUserBody {
    /// The member a POST creates: `externalId` and `userName` are required; the role is
    /// `peer_mentor` unless the extension names another.
    static func newEntry(_ body: [String: JSONValue]) throws -> MemberEntry {
        var entry = MemberEntry(externalID: "", userName: "")
        try apply(body, to: &entry, asResource: true)
        try requireIdentifiers(entry)
        return entry
    }

    /// What a PUT leaves of `current` (RFC 7644 §3.5.1): every attribute as the body says, those
    /// it leaves out cleared. Three stay as they were unless named: `active` and `role` (a
    /// membership ends or changes only when the body says so) and the write-only personnummer
    /// (a client cannot send back what it never reads; `null` removes it).
    static func replacement(_ body: [String: JSONValue], of current: MemberEntry) throws -> MemberEntry {
        var entry = current
        entry.externalID = ""
        entry.userName = ""
        entry.givenName = nil
        entry.familyName = nil
        entry.email = nil
        entry.phone = nil
        entry.memberNumber = nil
        entry.personnummer = .keep
        try apply(body, to: &entry, asResource: true)
        try requireIdentifiers(entry)
        return entry
    }

    /// Applies each attribute of `object` to `entry`. As a resource (a POST's or PUT's body) its
    /// `schemas` is checked; a PATCH's value object needs none.
    static func apply(_ object: [String: JSONValue], to entry: inout MemberEntry, asResource: Bool) throws {
        var members = try SCIMObject(object, in: "The body")
        let schemas = members.take("schemas")
        var attributes: [(SCIMAttribute, JSONValue)] = []
        for (name, value) in members.rest {
            guard let attribute = SCIMAttribute.named(name) else {
                if name.lowercased().hasPrefix("urn:") {
                    throw SCIMError.invalidValue("Portvakt knows no schema \(SCIMError.shown(name)) for a user; its extension is \(SCIMUser.membershipSchema).")
                }
                throw SCIMError.invalidValue("Portvakt keeps no attribute \(SCIMError.shown(name)) on a user; leave it out.")
            }
            attributes.append((attribute, value))
        }
        if asResource {
            let extensionAttributes: [SCIMAttribute] = [.membership, .role, .personnummer, .memberNumber]
            let extensionSent = attributes.contains { extensionAttributes.contains($0.0) }
            try checkSchemas(schemas, extensionSent: extensionSent)
        }
        for (attribute, value) in attributes {
            try entry.scimSet(attribute, to: value)
        }
    }

    /// A resource's `schemas`: URNs Portvakt knows, the User schema among them, and the
    /// extension's when its attributes are sent (RFC 7643 §3).
    static func checkSchemas(_ value: JSONValue?, extensionSent: Bool) throws {
        let expected = "schemas lists \(SCIMUser.schema) (and \(SCIMUser.membershipSchema) when role, personnummer or memberNumber are sent)."
        guard case .array(let items)? = value, !items.isEmpty else { throw SCIMError.invalidValue(expected) }
        var listed: Set<String> = []
        for item in items {
            guard let urn = item.stringValue else { throw SCIMError.invalidValue(expected) }
            guard let known = [SCIMUser.schema, SCIMUser.membershipSchema].first(where: { $0.lowercased() == urn.lowercased() }) else {
                throw SCIMError.invalidValue("Portvakt knows no schema \(SCIMError.shown(urn)) for a user; \(expected)")
            }
            listed.insert(known)
        }
        guard listed.contains(SCIMUser.schema), !extensionSent || listed.contains(SCIMUser.membershipSchema) else {
            throw SCIMError.invalidValue(expected)
        }
    }

    private static func requireIdentifiers(_ entry: MemberEntry) throws {
        guard !entry.externalID.isEmpty else { throw SCIMError.invalidValue("externalId is required: the member system's own id for this member.") }
        guard !entry.userName.isEmpty else { throw SCIMError.invalidValue("userName is required: the member number or the email.") }
    }
}
