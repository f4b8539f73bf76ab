import Foundation

/// An attribute of the User resource, as a body's member name or a PATCH `path` names it
/// (RFC 7644 §3.10: `[schema URN ":"] name ["." sub-attribute]`, case-insensitive).
enum SCIMAttribute: Sendable, Equatable {
    case externalID, userName
    case name, givenName, familyName
    case emails, emailValue
    case phoneNumbers, phoneValue
    case active
    /// The membership extension as a whole (its URN as the name).
    case membership
    case role, personnummer, memberNumber
    /// Portvakt sets these (`id`, `meta`, `displayName`, `name.formatted`, `personnummerOnRecord`):
    /// a body may carry them back, and they are ignored; a PATCH may not aim at them.
    case readOnly(String)

    /// The attribute `text` names; nil for none Portvakt keeps.
    static func named(_ text: String) -> SCIMAttribute? {
        let sent = text.trimmingCharacters(in: .whitespaces)
        var name = sent.lowercased()
        let membership = SCIMUser.membershipSchema.lowercased()
        if name == membership { return .membership }
        if name.hasPrefix(membership + ":") {
            switch String(name.dropFirst(membership.count + 1)) {
            case "role": return .role
            case "personnummer": return .personnummer
            case "membernumber": return .memberNumber
            case "personnummeronrecord": return .readOnly("personnummerOnRecord")
            default: return nil
            }
        }
        let core = SCIMUser.schema.lowercased() + ":"
        if name.hasPrefix(core) { name.removeFirst(core.count) }
        switch name {
        case "externalid": return .externalID
        case "username": return .userName
        case "name": return .name
        case "name.givenname": return .givenName
        case "name.familyname": return .familyName
        case "emails": return .emails
        case "emails.value": return .emailValue
        case "phonenumbers": return .phoneNumbers
        case "phonenumbers.value": return .phoneValue
        case "active": return .active
        case "id", "meta", "schemas", "displayname", "name.formatted": return .readOnly(sent)
        default:
            if name.hasPrefix("meta.") { return .readOnly(sent) }
            return nil
        }
    }

    /// The attribute a PATCH operation's `path` aims at (RFC 7644 §3.5.2): a value filter
    /// (`emails[type eq "work"]`) is refused with `invalidPath`, as is a name Portvakt does not
    /// keep; an attribute Portvakt sets with `mutability`.
    static func path(_ text: String) throws -> SCIMAttribute {
        if text.contains("[") {
            throw SCIMError.invalidPath(
                "Portvakt takes no value filter in a path (\(SCIMError.shown(text))): it keeps one email and one phone, so name emails or phoneNumbers."
            )
        }
        guard let attribute = named(text) else {
            throw SCIMError.invalidPath(
                "A user has no attribute \(SCIMError.shown(text)). Paths: active, userName, externalId, name, name.givenName, name.familyName, emails, phoneNumbers, and \(SCIMUser.membershipSchema):role, :personnummer, :memberNumber."
            )
        }
        if case .readOnly(let name) = attribute {
            throw SCIMError.mutability("\(SCIMError.shown(name)) is set by Portvakt and cannot be changed.")
        }
        return attribute
    }
}
