import Foundation
import PortvaktCore
@testable import QRCode
import Testing

@Suite("QR Code encoder")
struct QRCodeTests {
    /// DESIGN.md's vector: the animated BankID code's frame at t = 0.
    static let bankIDFrame = BankIDQRCode.frame(
        qrStartToken: "67df3917-fa0d-44e5-b327-edcc928297f8", qrStartSecret: "d28db9a7-4cde-429e-a983-359be676944c", seconds: 0
    )

    @Test("The version table agrees with the symbol geometry: data + EC codewords fill every data module")
    func versionTable() {
        for version in QRVersion.levelM {
            let v = version.number
            // Modules left for data: the whole square minus finders, separators, timing, alignment,
            // format and version information (ISO/IEC 18004 §7.1 counts).
            let alignmentCount = version.alignmentCentres.count
            let alignmentPatterns = alignmentCount == 0 ? 0 : alignmentCount * alignmentCount - 3
            let alignmentOnTiming = alignmentCount == 0 ? 0 : 2 * (alignmentCount - 2)
            var functionModules = 3 * 64 + 2 * (version.size - 16) + 25 * alignmentPatterns - 5 * alignmentOnTiming + 31
            if v >= 7 { functionModules += 36 }
            let dataModules = version.size * version.size - functionModules
            #expect(version.totalCodewords == dataModules / 8, "version \(v)")
        }
    }

    @Test("Reed–Solomon reproduces the standard's worked example (\"01234567\", 1-M)")
    func reedSolomon() {
        let data: [UInt8] = [0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11]
        let ec = ReedSolomon.remainder(of: data, generator: ReedSolomon.generator(degree: 10))
        #expect(ec == [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55])
    }

    @Test("A BankID frame needs version 7 and decodes to itself", .enabled(if: Zbar.shouldRun))
    func bankIDFrameDecodes() throws {
        let code = try QRCode(text: Self.bankIDFrame)
        #expect(code.version == 7)
        #expect(try Zbar.decode(code) == Self.bankIDFrame)
    }

    @Test("Every version decodes to its payload", .enabled(if: Zbar.shouldRun), arguments: QRVersion.levelM)
    func everyVersion(version: QRVersion) throws {
        let payload = String((0..<version.byteCapacity).map { index in Array("bankid.0123456789abcdef-QR")[index % 26] })
        let code = try QRCode(text: payload)
        #expect(code.version == version.number)
        #expect(try Zbar.decode(code) == payload)
    }

    @Test("Every mask pattern decodes", .enabled(if: Zbar.shouldRun), arguments: 0..<8)
    func everyMask(mask: Int) throws {
        let code = try QRCode(bytes: Array(Self.bankIDFrame.utf8), mask: mask)
        #expect(code.mask == mask)
        #expect(try Zbar.decode(code) == Self.bankIDFrame)
    }

    @Test("Too long a payload is refused with a clear error")
    func tooLong() {
        let capacity = QRVersion.levelM.last!.byteCapacity
        #expect(throws: QRCodeError.payloadTooLong(bytes: capacity + 1, capacity: capacity)) {
            try QRCode(bytes: Array(repeating: 0x41, count: capacity + 1))
        }
        #expect(throws: QRCodeError.invalidMask(8)) { try QRCode(bytes: [0x41], mask: 8) }
    }

    @Test("The SVG draws exactly the dark modules, with a quiet zone and an accessible name")
    func svg() throws {
        let code = try QRCode(text: Self.bankIDFrame)
        let svg = code.svg(escapedLabel: "QR-kode for BankID &lt;&quot;test&quot;&gt;")
        #expect(svg.contains(#"role="img""#))
        #expect(svg.contains(#"aria-label="QR-kode for BankID &lt;&quot;test&quot;&gt;""#))
        #expect(svg.contains(#"viewBox="0 0 \#(code.size + 8) \#(code.size + 8)""#))
        // Read the path back: "M x y h w v1 h-w z" per run of dark modules.
        let path = try #require(svg.split(separator: "d=\"").last?.split(separator: "\"").first)
        var drawn = Set<[Int]>()
        for run in path.split(separator: "z") {
            let numbers = run.split(whereSeparator: { "Mhv ".contains($0) }).compactMap { Int($0) }
            let (x, y, width) = (numbers[0] - 4, numbers[1] - 4, numbers[2])
            for column in x..<(x + width) { drawn.insert([column, y]) }
        }
        let dark = Set((0..<code.size).flatMap { y in (0..<code.size).filter { code.isDark(x: $0, y: y) }.map { [$0, y] } })
        #expect(drawn == dark)
    }

    @Test("Terminal half blocks carry two module rows per line")
    func halfBlocks() throws {
        let code = try QRCode(text: "bankid.test")
        let lines = code.halfBlocks(quietZone: 2, invert: false).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == (code.size + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == code.size + 4 })
        // Top-left finder corner, dark on light: the first symbol line starts with full blocks.
        let firstSymbolLine = Array(lines[1])
        #expect(firstSymbolLine[2] == "█")
        let rows = code.rows
        #expect(rows.count == code.size && rows[0][0] && !rows[7][7])
        let inverted = code.halfBlocks(quietZone: 2, invert: true).split(separator: "\n")
        #expect(Array(inverted[0]).allSatisfy { $0 == "█" }, "light quiet zone drawn as blocks when inverted")
    }
}
