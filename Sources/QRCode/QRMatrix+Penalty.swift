extension QRMatrix {
    /// The §7.8.3 score of how hard the symbol is to read; the mask with the lowest one is used.
    var penalty: Int {
        var score = 0
        for index in 0..<size {
            score += linePenalty(from: index * size, step: 1)
            score += linePenalty(from: index, step: size)
        }
        // Rule 2: every 2×2 block of one colour.
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let colour = modules[y * size + x]
                if modules[y * size + x + 1] == colour, modules[(y + 1) * size + x] == colour, modules[(y + 1) * size + x + 1] == colour {
                    score += 3
                }
            }
        }
        // Rule 4: 10 points for each full 5 % the dark share strays from half.
        let dark = modules.count { $0 }
        let percent = Double(dark) * 100 / Double(modules.count)
        score += Int(abs(percent - 50) / 5) * 10
        return score
    }

    /// Dark, light, dark ×3, light, dark, light ×4 (rule 3), the first module the highest bit; and the same backwards.
    private static let finderLike: UInt16 = 0b10111010000
    private static let finderLikeReversed: UInt16 = 0b00001011101

    /// Rule 1 (runs of five or more of one colour) and rule 3 (1:1:3:1:1 with four light modules
    /// beside it) along the line of `size` modules from `start`, `step` apart. The last 11 modules
    /// are kept as bits, so each module is read once (it runs for 8 masks of every code drawn).
    private func linePenalty(from start: Int, step: Int) -> Int {
        var score = 0
        var run = 0
        var colour = false
        var window: UInt16 = 0
        for offset in 0..<size {
            let dark = modules[start + offset * step]
            if offset > 0, dark == colour {
                run += 1
            } else {
                if run >= 5 { score += 3 + run - 5 }
                run = 1
                colour = dark
            }
            window = (window << 1 | (dark ? 1 : 0)) & 0x7FF
            if offset >= 10, window == Self.finderLike || window == Self.finderLikeReversed { score += 40 }
        }
        if run >= 5 { score += 3 + run - 5 }
        return score
    }
}
