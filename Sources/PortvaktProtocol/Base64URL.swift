import Foundation

/// Base64url (RFC 4648 §5) on top of Foundation's base64: the two alphabets differ in two
/// characters and the padding, so one pass over the bytes converts between them. (Three
/// `replacingOccurrences` calls were 4 % of an unlock's CPU: every token, proof and JWT goes
/// through here.)
extension Data {
    /// Base64url without padding (RFC 7515 §2).
    public func base64URLEncoded() -> String {
        let base64 = base64EncodedData()
        var characters = [UInt8]()
        characters.reserveCapacity(base64.count)
        for character in base64 {
            switch character {
            case UInt8(ascii: "+"): characters.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): characters.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): break
            default: characters.append(character)
            }
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// Decodes base64url with or without padding (RFC 7515 §2); nil when it is not base64url.
    public init?(base64URLEncoded text: String) {
        var characters = [UInt8]()
        characters.reserveCapacity(text.utf8.count + 3)
        for character in text.utf8 {
            switch character {
            case UInt8(ascii: "-"): characters.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): characters.append(UInt8(ascii: "/"))
            default: characters.append(character)
            }
        }
        characters.append(contentsOf: repeatElement(UInt8(ascii: "="), count: (4 - characters.count % 4) % 4))
        self.init(base64Encoded: Data(characters))
    }
}
