import Foundation
import PortvaktDomain

/// The `filter` of a list (RFC 7644 §3.4.2.2), the part of it a member system needs to find a
/// member it knows: `attribute eq "value"` on `userName`, `externalId` or `emails.value`.
/// Attribute names and the operator are case-insensitive, and may carry the User schema's URN.
/// Anything else (another operator, `and`/`or`, a value filter in brackets) is a 400
/// `invalidFilter` that says what Portvakt takes.
enum SCIMFilter {
    static let supported = #"Portvakt filters with eq on userName, externalId or emails.value only, such as userName eq "kari.nordmann"."#

    static func parse(_ text: String) throws -> DirectoryFilter {
        let filter = text.trimmingCharacters(in: .whitespaces)
        guard let firstSpace = filter.firstIndex(of: " ") else { throw SCIMError.invalidFilter(supported) }
        let attribute = String(filter[..<firstSpace])
        let afterAttribute = filter[firstSpace...].drop { $0 == " " }
        guard let secondSpace = afterAttribute.firstIndex(of: " ") else { throw SCIMError.invalidFilter(supported) }
        let comparison = afterAttribute[..<secondSpace].lowercased()
        let literal = afterAttribute[secondSpace...].trimmingCharacters(in: .whitespaces)
        guard comparison == "eq" else { throw SCIMError.invalidFilter(supported) }
        guard let value = stringLiteral(literal) else {
            throw SCIMError.invalidFilter(#"The value is one JSON string in double quotes, such as userName eq "kari.nordmann"."#)
        }
        var name = attribute.lowercased()
        let qualified = SCIMUser.schema.lowercased() + ":"
        if name.hasPrefix(qualified) { name.removeFirst(qualified.count) }
        switch name {
        case "username": return .userName(value)
        case "externalid": return .externalID(value)
        // Addresses are kept in lower case.
        case "emails.value", "emails": return .email(value.lowercased())
        default: throw SCIMError.invalidFilter(supported)
        }
    }

    /// The string a JSON string literal (`"…"`, with JSON's escapes) stands for; nil when
    /// `literal` is anything else, such as two literals joined by `and`.
    static func stringLiteral(_ literal: String) -> String? {
        guard literal.count >= 2, literal.hasPrefix("\""), literal.hasSuffix("\""),
              let values = try? JSONDecoder().decode([String].self, from: Data("[\(literal)]".utf8)),
              values.count == 1
        else { return nil }
        return values[0]
    }
}
