import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP

/// One attribute of a User resource written into a ``MemberEntry``: the directory validates
/// the values (an email's form, a phone's E.164, a personnummer's digits); this checks their
/// JSON types and shapes, and that every name is one Portvakt keeps.
extension MemberEntry {
    /// Sets `attribute` to `value`, or removes it (`nil`, or JSON `null`), as a User body or a
    /// PATCH operation says. A complex value (`name`, the extension) sets the sub-attributes it
    /// names and leaves the others (RFC 7644 §3.5.2.3).
    mutating func scimSet(_ attribute: SCIMAttribute, to sent: JSONValue?) throws {
        let value: JSONValue? = sent == JSONValue.null ? nil : sent
        switch attribute {
        case .externalID:
            externalID = try Self.required(value, "externalId", "the member system's own id for this member")
        case .userName:
            userName = try Self.required(value, "userName", "the member number or the email")
        case .name:
            guard let value else {
                givenName = nil
                familyName = nil
                return
            }
            guard case .object(let members) = value else { throw SCIMError.invalidValue(#"name is an object: {"givenName": …, "familyName": …}."#) }
            var name = try SCIMObject(members, in: "name")
            if let given = name.take("givenName") { try scimSet(.givenName, to: given) }
            if let family = name.take("familyName") { try scimSet(.familyName, to: family) }
            _ = name.take("formatted")
            try name.refuseRest { "name has no sub-attribute \($0) in Portvakt; send givenName and familyName." }
        case .givenName:
            givenName = try Self.optional(value, "name.givenName")
        case .familyName:
            familyName = try Self.optional(value, "name.familyName")
        case .emails:
            email = try Self.single(value, of: "emails")
        case .emailValue:
            email = try Self.optional(value, "emails.value")
        case .phoneNumbers:
            phone = try Self.single(value, of: "phoneNumbers")
        case .phoneValue:
            phone = try Self.optional(value, "phoneNumbers.value")
        case .active:
            active = try Self.boolean(value)
        case .membership:
            try setMembership(value)
        case .role:
            guard let value else { throw SCIMError.invalidValue("role cannot be removed; replace it with peer_mentor, coordinator or org_admin.") }
            guard let text = value.stringValue, let role = Role(rawValue: text) else {
                throw SCIMError.invalidValue("role is one of peer_mentor, coordinator and org_admin.")
            }
            self.role = role
        case .personnummer:
            // Never quoted back: a detail must not carry a number.
            switch value {
            case nil: personnummer = .remove
            case .string(let text)?: personnummer = text.isEmpty ? .remove : .set(text)
            default: throw SCIMError.invalidValue("personnummer is a string of 11 digits, or null to remove it.")
            }
        case .memberNumber:
            memberNumber = try Self.optional(value, "memberNumber")
        case .readOnly:
            break
        }
    }

    /// The membership extension's object: `role`, `personnummer`, `memberNumber`
    /// (`personnummerOnRecord` is Portvakt's, and ignored).
    private mutating func setMembership(_ value: JSONValue?) throws {
        guard let value else {
            throw SCIMError.invalidValue("The membership extension cannot be removed as a whole: remove its personnummer or memberNumber by name.")
        }
        guard case .object(let members) = value else {
            throw SCIMError.invalidValue(#"\#(SCIMUser.membershipSchema) is an object: {"role": …, "personnummer": …}."#)
        }
        var membership = try SCIMObject(members, in: SCIMUser.membershipSchema)
        if let role = membership.take("role") { try scimSet(.role, to: role) }
        if let number = membership.take("personnummer") { try scimSet(.personnummer, to: number) }
        if let number = membership.take("memberNumber") { try scimSet(.memberNumber, to: number) }
        _ = membership.take("personnummerOnRecord")
        try membership.refuseRest { "The membership extension has no attribute \($0); it has role, personnummer and memberNumber." }
    }

    private static func required(_ value: JSONValue?, _ name: String, _ what: String) throws -> String {
        guard let value else { throw SCIMError.invalidValue("\(name) is required: \(what).") }
        guard let text = value.stringValue, !text.isEmpty else { throw SCIMError.invalidValue("\(name) is a string: \(what).") }
        return text
    }

    private static func optional(_ value: JSONValue?, _ name: String) throws -> String? {
        guard let value else { return nil }
        guard let text = value.stringValue else { throw SCIMError.invalidValue("\(name) is a string, or null to remove it.") }
        return text.isEmpty ? nil : text
    }

    /// `true` or `false`; the strings "True" and "False" too, as some directories send them in a PATCH.
    private static func boolean(_ value: JSONValue?) throws -> Bool {
        switch value {
        case nil: throw SCIMError.invalidValue("active cannot be removed; set it to false to end the membership.")
        case .bool(let flag)?: return flag
        case .string(let text)? where ["true", "false"].contains(text.lowercased()): return text.lowercased() == "true"
        default: throw SCIMError.invalidValue("active is true or false.")
        }
    }

    /// The one value Portvakt keeps of a multi-valued attribute (`emails`, `phoneNumbers`): the
    /// only one sent, or the one marked primary. An empty list removes it.
    private static func single(_ value: JSONValue?, of name: String) throws -> String? {
        guard let value else { return nil }
        let items: [JSONValue]
        switch value {
        case .array(let list): items = list
        case .object: items = [value]
        default: throw SCIMError.invalidValue(#"\#(name) is a list of objects, such as [{"value": …, "primary": true}]."#)
        }
        var values: [(text: String, primary: Bool)] = []
        for (index, item) in items.enumerated() {
            guard case .object(let members) = item else {
                throw SCIMError.invalidValue(#"\#(name) is a list of objects, such as [{"value": …, "primary": true}]."#)
            }
            var entry = try SCIMObject(members, in: "\(name)[\(index)]")
            let sentValue = entry.take("value")
            let primary = entry.take("primary")
            _ = entry.take("type")
            _ = entry.take("display")
            try entry.refuseRest { "\(name) has no sub-attribute \($0) in Portvakt; send value, type and primary." }
            guard let text = sentValue?.stringValue else { throw SCIMError.invalidValue("Each of \(name) has a value, a string.") }
            var isPrimary = false
            switch primary {
            case nil, .null?: break
            case .bool(let flag)?: isPrimary = flag
            default: throw SCIMError.invalidValue("primary is true or false.")
            }
            if !text.isEmpty { values.append((text, isPrimary)) }
        }
        guard values.count > 1 else { return values.first?.text }
        let primaries = values.filter { $0.primary }
        guard primaries.count == 1 else { throw SCIMError.invalidValue("Portvakt keeps one of a member's \(name): send one, or mark one primary.") }
        return primaries[0].text
    }
}
