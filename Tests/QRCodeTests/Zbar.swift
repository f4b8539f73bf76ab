import Foundation
import QRCode

/// ZBar's `zbarimg` (Debian's zbar-tools): a decoder that shares no code with ours.
enum Zbar {
    static let path = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Without zbarimg the decoding tests are skipped, except on CI, where they run and fail.
    static var shouldRun: Bool { path != nil || ProcessInfo.processInfo.environment["CI"] == "true" }

    /// What zbarimg reads from the rasterised symbol.
    static func decode(_ code: QRCode) throws -> String {
        guard let path else { throw ZbarMissing() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).png")
        try PNGRaster.png(code).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--quiet", "--raw", file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var text = String(decoding: data, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    struct ZbarMissing: Error, CustomStringConvertible {
        var description: String { "zbarimg is not installed (apt-get install zbar-tools)" }
    }
}
