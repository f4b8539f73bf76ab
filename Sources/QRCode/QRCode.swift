/// A QR Code symbol (ISO/IEC 18004): byte mode, error correction level M, the smallest version
/// that holds the payload, and the mask with the lowest penalty.
///
/// Portvakt draws the animated BankID codes with it; renderers read the module matrix
/// (``isDark(x:y:)``, ``rows``) or use ``svg(moduleSize:label:)`` and ``halfBlocks(quietZone:invert:)``.
public struct QRCode: Sendable, Hashable {
    /// 1–20.
    public let version: Int
    /// Modules per side, without a quiet zone.
    public let size: Int
    /// The data mask pattern, 0–7.
    public let mask: Int
    /// Row-major, `true` for a dark module.
    private let modules: [Bool]

    /// Encodes the UTF-8 bytes of `text`.
    public init(text: String) throws(QRCodeError) {
        try self.init(bytes: Array(text.utf8))
    }

    /// Encodes `bytes`; `mask` forces a mask pattern (0–7) instead of choosing the best.
    public init(bytes: [UInt8], mask forcedMask: Int? = nil) throws(QRCodeError) {
        guard let version = QRVersion.smallest(holding: bytes.count) else {
            throw QRCodeError.payloadTooLong(bytes: bytes.count, capacity: QRVersion.levelM.last!.byteCapacity)
        }
        if let forcedMask, !(0..<8).contains(forcedMask) { throw QRCodeError.invalidMask(forcedMask) }
        var matrix = QRMatrix(version: version)
        matrix.placeData(Self.codewords(bytes, version: version))
        let candidates = (forcedMask.map { [$0] } ?? Array(0..<8)).map { mask in
            let masked = matrix.masked(mask)
            return (mask: mask, matrix: masked, penalty: masked.penalty)
        }
        let best = candidates.min { $0.penalty < $1.penalty }!
        self.version = version.number
        size = version.size
        mask = best.mask
        modules = best.matrix.modules
    }

    /// Whether the module in column `x`, row `y` is dark; outside the symbol (the quiet zone) is light.
    public func isDark(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }

    /// The module matrix, top row first, `true` for dark.
    public var rows: [[Bool]] {
        (0..<size).map { y in Array(modules[(y * size)..<((y + 1) * size)]) }
    }

    /// The interleaved data and error-correction codewords (ISO/IEC 18004 §7.4, §7.5, §7.6).
    static func codewords(_ bytes: [UInt8], version: QRVersion) -> [UInt8] {
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: version.byteCountBits)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        let capacity = version.dataCodewords * 8
        bits.append(0, count: min(4, capacity - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var data = bits.bytes
        for index in 0..<(version.dataCodewords - data.count) { data.append(index % 2 == 0 ? 0xEC : 0x11) }

        let generator = ReedSolomon.generator(degree: version.ecCodewordsPerBlock)
        var blocks: [(data: ArraySlice<UInt8>, ec: [UInt8])] = []
        var offset = 0
        for length in version.blockDataLengths {
            let block = data[offset..<(offset + length)]
            blocks.append((block, ReedSolomon.remainder(of: block, generator: generator)))
            offset += length
        }
        var result: [UInt8] = []
        for index in 0..<(version.blockDataLengths.max() ?? 0) {
            for block in blocks where index < block.data.count { result.append(block.data[block.data.startIndex + index]) }
        }
        for index in 0..<version.ecCodewordsPerBlock {
            for block in blocks { result.append(block.ec[index]) }
        }
        return result
    }
}

public enum QRCodeError: Error, Sendable, Hashable, CustomStringConvertible {
    case payloadTooLong(bytes: Int, capacity: Int)
    case invalidMask(Int)

    public var description: String {
        switch self {
        case .payloadTooLong(let bytes, let capacity): "\(bytes) bytes do not fit in a QR code (at most \(capacity))"
        case .invalidMask(let mask): "mask \(mask) is not 0–7"
        }
    }
}

/// Bits appended most significant first, read out as bytes.
struct BitBuffer {
    private(set) var bits: [Bool] = []
    var count: Int { bits.count }

    mutating func append(_ value: Int, count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
    }

    var bytes: [UInt8] {
        stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<min(start + 8, bits.count)].enumerated().reduce(UInt8(0)) { $0 | ($1.element ? 0x80 >> $1.offset : 0) }
        }
    }
}
