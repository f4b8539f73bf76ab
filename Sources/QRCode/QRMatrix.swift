/// The module grid while a symbol is drawn: the function patterns first, then the data in the
/// zigzag order of ISO/IEC 18004 §7.7.3, then one of the eight masks with its format bits.
struct QRMatrix {
    let size: Int
    private(set) var modules: [Bool]
    /// Finder, separator, timing, alignment, format and version modules: never data, never masked.
    private var isFunction: [Bool]

    init(version: QRVersion) {
        size = version.size
        modules = Array(repeating: false, count: size * size)
        isFunction = Array(repeating: false, count: size * size)
        for index in 0..<size {
            setFunction(x: 6, y: index, dark: index % 2 == 0)
            setFunction(x: index, y: 6, dark: index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] { drawFinder(centreX: x, centreY: y) }
        let centres = version.alignmentCentres
        for y in centres {
            for x in centres where !Self.overlapsFinder(x, y, last: centres.last ?? 0) { drawAlignment(centreX: x, centreY: y) }
        }
        drawFormatBits(mask: 0)
        if version.number >= 7 { drawVersionBits(version.number) }
    }

    private static func overlapsFinder(_ x: Int, _ y: Int, last: Int) -> Bool {
        (x == 6 && y == 6) || (x == 6 && y == last) || (x == last && y == 6)
    }

    private mutating func setFunction(x: Int, y: Int, dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    /// The 7×7 finder with its light separator ring.
    private mutating func drawFinder(centreX: Int, centreY: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let x = centreX + dx, y = centreY + dy
                guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                let ring = max(abs(dx), abs(dy))
                setFunction(x: x, y: y, dark: ring != 2 && ring != 4)
            }
        }
    }

    private mutating func drawAlignment(centreX: Int, centreY: Int) {
        for dy in -2...2 {
            for dx in -2...2 { setFunction(x: centreX + dx, y: centreY + dy, dark: max(abs(dx), abs(dy)) != 1) }
        }
    }

    /// Level M (`00`) and the mask, BCH(15,5)-protected and XORed with 101010000010010 (§7.9).
    private mutating func drawFormatBits(mask: Int) {
        let data = mask // level M's two bits are 00
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = ((data << 10) | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        // Around the top-left finder.
        for index in 0...5 { setFunction(x: 8, y: index, dark: bit(index)) }
        setFunction(x: 8, y: 7, dark: bit(6))
        setFunction(x: 8, y: 8, dark: bit(7))
        setFunction(x: 7, y: 8, dark: bit(8))
        for index in 9..<15 { setFunction(x: 14 - index, y: 8, dark: bit(index)) }
        // Beside the other two finders, and the module that is always dark.
        for index in 0..<8 { setFunction(x: size - 1 - index, y: 8, dark: bit(index)) }
        for index in 8..<15 { setFunction(x: 8, y: size - 15 + index, dark: bit(index)) }
        setFunction(x: 8, y: size - 8, dark: true)
    }

    /// The version number, BCH(18,6)-protected, in two 6×3 blocks (§7.10; version 7 and up).
    private mutating func drawVersionBits(_ version: Int) {
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = (version << 12) | remainder
        for index in 0..<18 {
            let dark = (bits >> index) & 1 == 1
            let a = size - 11 + index % 3, b = index / 3
            setFunction(x: a, y: b, dark: dark)
            setFunction(x: b, y: a, dark: dark)
        }
    }

    /// Places the codewords' bits, most significant first, in two-module columns from the
    /// bottom right, up and down in turn, skipping the vertical timing column.
    mutating func placeData(_ codewords: [UInt8]) {
        let bitCount = codewords.count * 8
        var bitIndex = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !isFunction[y * size + x] && bitIndex < bitCount {
                    modules[y * size + x] = (codewords[bitIndex / 8] >> (7 - bitIndex % 8)) & 1 == 1
                    bitIndex += 1
                }
            }
            right -= 2
        }
    }

    /// A copy with data mask `mask` applied (§7.8.2) and its format bits drawn.
    func masked(_ mask: Int) -> QRMatrix {
        var copy = self
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] && Self.maskInverts(mask, row: y, column: x) {
                copy.modules[y * size + x].toggle()
            }
        }
        copy.drawFormatBits(mask: mask)
        return copy
    }

    private static func maskInverts(_ mask: Int, row i: Int, column j: Int) -> Bool {
        switch mask {
        case 0: (i + j) % 2 == 0
        case 1: i % 2 == 0
        case 2: j % 3 == 0
        case 3: (i + j) % 3 == 0
        case 4: (i / 2 + j / 3) % 2 == 0
        case 5: (i * j) % 2 + (i * j) % 3 == 0
        case 6: ((i * j) % 2 + (i * j) % 3) % 2 == 0
        default: ((i + j) % 2 + (i * j) % 3) % 2 == 0
        }
    }
}
