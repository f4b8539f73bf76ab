import Foundation

/// Percent-encoding that keeps only RFC 3986's unreserved characters (ASCII letters, digits,
/// `-._~`): safe as a form or query value, and as one path segment (an id can never climb to
/// another resource with `../` or add a query).
public enum PercentEncoding {
    public static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// ASCII only: `CharacterSet.alphanumerics` would let "ø" through unencoded.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
