/// One QR Code version (symbol size) at error-correction level M, as ISO/IEC 18004 tables it:
/// how the codewords split into Reed–Solomon blocks and where the alignment patterns sit.
/// Versions 1–20 (up to 666 bytes at level M); Portvakt's payloads need version 7 at most.
struct QRVersion: Sendable {
    let number: Int
    /// Error-correction codewords in every block.
    let ecCodewordsPerBlock: Int
    /// Data codewords of each block, shorter blocks first.
    let blockDataLengths: [Int]
    /// Row and column centres of the alignment patterns.
    let alignmentCentres: [Int]

    var size: Int { 17 + 4 * number }
    var dataCodewords: Int { blockDataLengths.reduce(0, +) }
    var totalCodewords: Int { dataCodewords + ecCodewordsPerBlock * blockDataLengths.count }
    /// Byte mode's character count field: 8 bits up to version 9, then 16.
    var byteCountBits: Int { number <= 9 ? 8 : 16 }
    /// Bytes a byte-mode segment can carry: data bits minus the mode and count fields.
    var byteCapacity: Int { (dataCodewords * 8 - 4 - byteCountBits) / 8 }

    private init(_ number: Int, ec: Int, _ groups: [(count: Int, length: Int)], alignment: [Int]) {
        self.number = number
        ecCodewordsPerBlock = ec
        blockDataLengths = groups.flatMap { Array(repeating: $0.length, count: $0.count) }
        alignmentCentres = alignment
    }

    /// ISO/IEC 18004 Table 9 (level M) and Annex E.
    static let levelM: [QRVersion] = [
        QRVersion(1, ec: 10, [(1, 16)], alignment: []),
        QRVersion(2, ec: 16, [(1, 28)], alignment: [6, 18]),
        QRVersion(3, ec: 26, [(1, 44)], alignment: [6, 22]),
        QRVersion(4, ec: 18, [(2, 32)], alignment: [6, 26]),
        QRVersion(5, ec: 24, [(2, 43)], alignment: [6, 30]),
        QRVersion(6, ec: 16, [(4, 27)], alignment: [6, 34]),
        QRVersion(7, ec: 18, [(4, 31)], alignment: [6, 22, 38]),
        QRVersion(8, ec: 22, [(2, 38), (2, 39)], alignment: [6, 24, 42]),
        QRVersion(9, ec: 22, [(3, 36), (2, 37)], alignment: [6, 26, 46]),
        QRVersion(10, ec: 26, [(4, 43), (1, 44)], alignment: [6, 28, 50]),
        QRVersion(11, ec: 30, [(1, 50), (4, 51)], alignment: [6, 30, 54]),
        QRVersion(12, ec: 22, [(6, 36), (2, 37)], alignment: [6, 32, 58]),
        QRVersion(13, ec: 22, [(8, 37), (1, 38)], alignment: [6, 34, 62]),
        QRVersion(14, ec: 24, [(4, 40), (5, 41)], alignment: [6, 26, 46, 66]),
        QRVersion(15, ec: 24, [(5, 41), (5, 42)], alignment: [6, 26, 48, 70]),
        QRVersion(16, ec: 28, [(7, 45), (3, 46)], alignment: [6, 26, 50, 74]),
        QRVersion(17, ec: 28, [(10, 46), (1, 47)], alignment: [6, 30, 54, 78]),
        QRVersion(18, ec: 26, [(9, 43), (4, 44)], alignment: [6, 30, 56, 82]),
        QRVersion(19, ec: 26, [(3, 44), (11, 45)], alignment: [6, 30, 58, 86]),
        QRVersion(20, ec: 26, [(3, 41), (13, 42)], alignment: [6, 34, 62, 90]),
    ]

    /// The smallest version whose byte capacity holds `byteCount` bytes.
    static func smallest(holding byteCount: Int) -> QRVersion? {
        levelM.first { $0.byteCapacity >= byteCount }
    }
}
