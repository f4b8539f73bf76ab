extension QRMatrix {
    /// The §7.8.3 score of how hard the symbol is to read; the mask with the lowest one is used.
    var penalty: Int {
        var score = 0
        for index in 0..<size {
            score += Self.linePenalty((0..<size).map { modules[index * size + $0] })
            score += Self.linePenalty((0..<size).map { modules[$0 * size + index] })
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

    private static let finderLike: [Bool] = [true, false, true, true, true, false, true, false, false, false, false]
    private static let finderLikeReversed: [Bool] = finderLike.reversed()

    /// Rule 1 (runs of five or more of one colour) and rule 3 (1:1:3:1:1 with four light modules beside it).
    private static func linePenalty(_ line: [Bool]) -> Int {
        var score = 0
        var run = 1
        for index in 1...line.count {
            if index < line.count, line[index] == line[index - 1] {
                run += 1
            } else {
                if run >= 5 { score += 3 + run - 5 }
                run = 1
            }
        }
        if line.count >= finderLike.count {
            for start in 0...(line.count - finderLike.count) {
                let window = line[start..<(start + finderLike.count)]
                if window.elementsEqual(finderLike) || window.elementsEqual(finderLikeReversed) { score += 40 }
            }
        }
        return score
    }
}
