/// Decodes CBOR strictly and within limits, so input from a browser cannot exhaust memory or the
/// stack: definite lengths only, no tags or floats, map keys unique integers or text, nesting at
/// most ``Limits/depth`` deep, at most ``Limits/items`` items, nothing longer than what is left.
public struct CBORDecoder {
    public struct Limits: Sendable {
        public var depth = 8
        public var items = 512

        public init() {}
    }

    public enum Failure: Error, Equatable, Sendable {
        case truncated
        case tooDeep
        case tooManyItems
        case unsupported(String)
        case invalidText
        case duplicateKey
        case trailingBytes
    }

    private let bytes: [UInt8]
    private let limits: Limits
    /// Where the next item starts.
    public private(set) var offset: Int
    private var items = 0

    public init(_ bytes: [UInt8], from offset: Int = 0, limits: Limits = Limits()) {
        self.bytes = bytes
        self.offset = offset
        self.limits = limits
    }

    /// The one item `bytes` holds; anything after it is refused.
    public static func decodeOnly(_ bytes: [UInt8], limits: Limits = Limits()) throws(Failure) -> CBOR {
        var decoder = CBORDecoder(bytes, limits: limits)
        let item = try decoder.decodeItem()
        guard decoder.offset == bytes.count else { throw .trailingBytes }
        return item
    }

    /// The next item; ``offset`` moves past it.
    public mutating func decodeItem() throws(Failure) -> CBOR {
        try item(depth: 0)
    }

    private mutating func item(depth: Int) throws(Failure) -> CBOR {
        guard depth <= limits.depth else { throw .tooDeep }
        items += 1
        guard items <= limits.items else { throw .tooManyItems }
        let initial = try byte()
        let major = initial >> 5
        let info = initial & 0x1f
        if major == 7 {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            default: throw .unsupported("simple value or float \(info)")
            }
        }
        let argument = try self.argument(info)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(try take(argument))
        case 3:
            guard let text = String(validating: try take(argument), as: UTF8.self) else { throw .invalidText }
            return .text(text)
        case 4:
            let count = try self.count(argument)
            var elements: [CBOR] = []
            for _ in 0..<count { elements.append(try item(depth: depth + 1)) }
            return .array(elements)
        case 5:
            let count = try self.count(argument)
            var pairs: [(CBOR, CBOR)] = []
            for _ in 0..<count {
                let key = try item(depth: depth + 1)
                guard key.int != nil || key.textString != nil else { throw .unsupported("map key") }
                guard !pairs.contains(where: { $0.0 == key }) else { throw .duplicateKey }
                pairs.append((key, try item(depth: depth + 1)))
            }
            return .map(pairs)
        default:
            throw .unsupported("tag")
        }
    }

    private mutating func byte() throws(Failure) -> UInt8 {
        guard offset < bytes.count else { throw .truncated }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The argument of an initial byte's additional information; indefinite lengths are refused.
    private mutating func argument(_ info: UInt8) throws(Failure) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24, 25, 26, 27:
            var value: UInt64 = 0
            for _ in 0..<(1 << (info - 24)) { value = value << 8 | UInt64(try byte()) }
            return value
        default: throw .unsupported("additional information \(info)")
        }
    }

    private mutating func take(_ length: UInt64) throws(Failure) -> [UInt8] {
        guard length <= UInt64(bytes.count - offset) else { throw .truncated }
        let end = offset + Int(length)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }

    /// A count of elements: each needs at least one byte, so more than are left is refused at once.
    private func count(_ argument: UInt64) throws(Failure) -> Int {
        guard argument <= UInt64(bytes.count - offset) else { throw .truncated }
        return Int(argument)
    }
}
