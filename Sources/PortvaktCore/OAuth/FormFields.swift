import Foundation
import PortvaktProtocol

/// `application/x-www-form-urlencoded` fields (a query string or a form body), parsed strictly:
/// OAuth parameters must not repeat (RFC 6749 §3.1), so a repeated name is refused, not guessed,
/// and no name or value may carry a control character (a NUL would reach SQL, a line break a log).
public struct FormFields: Sendable {
    private let values: [String: String]

    /// Why a query string or form body was refused; the text names the field and is safe to show.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// - Throws: ``Problem`` for bad percent-encoding, a repeated name, or a control character.
    public static func parse(_ text: String) throws(Problem) -> FormFields {
        var values: [String: String] = [:]
        // Split on the UTF-8 bytes: `&` and `=` are ASCII, and splitting the characters would
        // look for grapheme clusters in every value.
        for pair in text.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(Substring(parts[0])), let value = decode(parts.count > 1 ? Substring(parts[1]) : "") else {
                throw Problem(description: "A field is not valid percent-encoding.")
            }
            let shownName = TextInput.hasControlCharacters(name) ? "(unreadable)" : name
            guard values[name] == nil else { throw Problem(description: "The field \"\(shownName)\" appears more than once.") }
            guard !TextInput.hasControlCharacters(name), !TextInput.hasControlCharacters(value) else {
                throw Problem(description: "The field \"\(shownName)\" contains control characters.")
            }
            values[name] = value
        }
        return FormFields(values: values)
    }

    /// - Returns: nil when ``parse(_:)`` would throw.
    public init?(_ text: String) {
        guard let fields = try? Self.parse(text) else { return nil }
        self = fields
    }

    private init(values: [String: String]) {
        self.values = values
    }

    /// These fields with `name` set to `value` (the client an `Authorization` header named).
    public func setting(_ name: String, to value: String) -> FormFields {
        var values = values
        values[name] = value
        return FormFields(values: values)
    }

    /// The value, with an empty value treated as absent (RFC 6749 §3.1).
    public subscript(name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    /// One name or value: form encoding writes spaces as `+`; nil for bad percent-encoding.
    public static func decode(_ text: Substring) -> String? {
        PercentEncoding.decode(text, plusIsSpace: true)
    }

    /// Encodes one value for a query string or form body (RFC 3986 unreserved characters kept).
    public static func encode(_ value: String) -> String {
        PercentEncoding.encode(value)
    }
}

extension URLComponents {
    /// `uri` with `fields` appended to its query, each value percent-encoded.
    public static func appending(_ fields: [(String, String)], to uri: String) -> String {
        let query = fields.map { "\($0.0)=\(FormFields.encode($0.1))" }.joined(separator: "&")
        return uri + (uri.contains("?") ? "&" : "?") + query
    }
}
