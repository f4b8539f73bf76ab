import WebAuthn

/// A test's own CBOR encoder, to build attestation objects and COSE keys the way an
/// authenticator does (definite lengths, keys in the order given).
public enum CBOREncoding {
    public static func encode(_ item: CBOR) -> [UInt8] {
        switch item {
        case .unsigned(let value): head(0, value)
        case .negative(let value): head(1, value)
        case .bytes(let bytes): head(2, UInt64(bytes.count)) + bytes
        case .text(let text): head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let items): head(4, UInt64(items.count)) + items.flatMap(encode)
        case .map(let pairs): head(5, UInt64(pairs.count)) + pairs.flatMap { encode($0.0) + encode($0.1) }
        case .bool(let value): [value ? 0xf5 : 0xf4]
        case .null: [0xf6]
        case .undefined: [0xf7]
        }
    }

    public static func head(_ major: UInt8, _ value: UInt64) -> [UInt8] {
        let top = major << 5
        switch value {
        case 0..<24: return [top | UInt8(value)]
        case 24..<0x100: return [top | 24, UInt8(value)]
        case 0x100..<0x10000: return [top | 25, UInt8(value >> 8), UInt8(value & 0xff)]
        case 0x10000..<0x1_0000_0000: return [top | 26] + (0..<4).reversed().map { UInt8(value >> ($0 * 8) & 0xff) }
        default: return [top | 27] + (0..<8).reversed().map { UInt8(value >> ($0 * 8) & 0xff) }
        }
    }

    public static func int(_ value: Int) -> CBOR { value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value)) }
}
