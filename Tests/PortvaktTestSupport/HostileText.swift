/// Random strings built to break parsers: ASCII digits next to combining marks, keycaps,
/// fullwidth and Arabic-Indic digits, NBSP, NUL and other controls, percent signs and separators,
/// emoji, and scalars from anywhere in Unicode.
public struct HostileText: Sendable {
    private var state: UInt64

    /// The same seed gives the same strings, so a failure can be replayed.
    public init(seed: UInt64) {
        state = seed | 1
    }

    public static let pieces: [String] = [
        "0", "1", "5", "9", "150586", "00048", "-", " ", "+", "%", "%0", "%00", "%0a", "%C2%A0", "%ZZ", "=", "&", ".", "eyJ",
        "\u{301}", "\u{20E3}", "1\u{20E3}", "5\u{301}", "\u{FF10}", "\u{FF19}", "\u{0660}", "\u{0669}", "\u{A0}", "\u{0}", "\u{7}",
        "\n", "\r", "\t", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{2028}", "\u{200B}", "\u{FEFF}", "\u{FFFD}", "🧑‍🦽", "ø", "Å",
        "\"", "'", "\\", "{", "}", "[", "]", ":", ",", "/", "..", "null",
    ]

    public mutating func next(maxPieces: Int = 24) -> String {
        var text = ""
        for _ in 0..<Int(nextUInt64() % UInt64(maxPieces + 1)) {
            if nextUInt64() % 5 == 0 {
                text.unicodeScalars.append(randomScalar())
            } else {
                text += Self.pieces[Int(nextUInt64() % UInt64(Self.pieces.count))]
            }
        }
        return text
    }

    private mutating func randomScalar() -> Unicode.Scalar {
        while true {
            if let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: nextUInt64() % 0x110000)) { return scalar }
        }
    }

    /// SplitMix64.
    private mutating func nextUInt64() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
