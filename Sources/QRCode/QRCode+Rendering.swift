extension QRCode {
    /// An SVG image with a four-module quiet zone: one path of dark squares on white, exposed to
    /// assistive technology as an image named by `escapedLabel`.
    /// - Parameter escapedLabel: the accessible name, already escaped for an XML attribute
    ///   (the caller's HTML escaping does).
    public func svg(moduleSize: Int = 8, escapedLabel: String) -> String {
        let quietZone = 4
        let side = size + 2 * quietZone
        var path = ""
        path.reserveCapacity(size * size * 4)
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else { x += 1; continue }
                var end = x
                while end < size, isDark(x: end, y: y) { end += 1 }
                path += "M\(x + quietZone) \(y + quietZone)h\(end - x)v1h-\(end - x)z"
                x = end
            }
        }
        let pixels = side * moduleSize
        return """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" width="\(pixels)" height="\(pixels)" \
        role="img" aria-label="\(escapedLabel)" shape-rendering="crispEdges">\
        <rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
        """
    }

    /// Text for a terminal: two module rows per line with the half-block characters ▀ ▄ █.
    /// - Parameters:
    ///   - quietZone: light modules around the symbol (the standard asks for 4; terminals often manage with 2).
    ///   - invert: draw light modules as blocks, for light text on a dark background.
    public func halfBlocks(quietZone: Int = 2, invert: Bool = true) -> String {
        let range = -quietZone..<(size + quietZone)
        var lines: [String] = []
        for top in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            var line = ""
            for x in range {
                let upper = isDark(x: x, y: top) != invert
                // Past the last row is the terminal's own background: no ink.
                let lower = top + 1 < range.upperBound ? isDark(x: x, y: top + 1) != invert : false
                switch (upper, lower) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
