import Foundation

/// Percent-encoding that keeps only RFC 3986's unreserved characters (ASCII letters, digits,
/// `-._~`): safe as a form or query value, and as one path segment (an id can never climb to
/// another resource with `../` or add a query).
public enum PercentEncoding {
    public static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// Decodes `%XX` escapes (RFC 3986 §2.1) on the UTF-8 bytes; nil for a `%` without two hex
    /// digits or bytes that are not UTF-8. Unlike Foundation's `removingPercentEncoding`, a
    /// leading byte order mark is kept, so decoding what ``encode(_:)`` wrote gives it back.
    /// With `plusIsSpace` (form encoding), a `+` is a space.
    public static func decode(_ text: some StringProtocol, plusIsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var input = text.utf8.makeIterator()
        while let byte = input.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                continue
            }
            guard let high = input.next().flatMap(hexValue), let low = input.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// ASCII only: `CharacterSet.alphanumerics` would let "ø" through unencoded.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
