/// A CBOR data item (RFC 8949) of the kinds WebAuthn uses: attestation objects, COSE keys and
/// authenticator extensions. Floats, tags and indefinite lengths are refused by ``CBORDecoder``.
public enum CBOR: Sendable, Equatable {
    case unsigned(UInt64)
    /// A negative integer: `-1 - n` for the encoded `n`.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    /// Pairs in the order they were encoded; keys are unique.
    case map([(CBOR, CBOR)])
    case bool(Bool)
    case null
    case undefined

    public static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null), (.undefined, .undefined): true
        default: false
        }
    }

    /// The value as a Swift integer, when it is an integer that fits.
    public var int: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): value < UInt64(Int.max) ? -1 - Int(value) : nil
        default: nil
        }
    }

    public var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    public var textString: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The value under an integer key of a map (COSE keys).
    public subscript(int key: Int) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0.int == key }?.1
    }

    /// The value under a text key of a map (attestation objects).
    public subscript(text key: String) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0.textString == key }?.1
    }
}
