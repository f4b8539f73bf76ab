import Foundation
import PortvaktProtocol

/// `application/x-www-form-urlencoded` fields (a query string or a form body), parsed strictly:
/// OAuth parameters must not repeat (RFC 6749 §3.1), so a repeated name is refused, not guessed.
public struct FormFields: Sendable {
    private let values: [String: String]

    /// - Returns: nil when the text is not valid form encoding or a name repeats.
    public init?(_ text: String) {
        var values: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), let value = Self.decode(parts.count > 1 ? parts[1] : "") else { return nil }
            guard values[name] == nil else { return nil }
            values[name] = value
        }
        self.values = values
    }

    /// The value, with an empty value treated as absent (RFC 6749 §3.1).
    public subscript(name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    /// Form encoding writes spaces as `+`.
    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// Encodes one value for a query string or form body (RFC 3986 unreserved characters kept).
    public static func encode(_ value: String) -> String {
        PercentEncoding.encode(value)
    }
}
