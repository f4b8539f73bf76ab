import Foundation
import Logging
import PortvaktCore
import PortvaktServer
import PortvaktTestSupport

/// A server configuration on a fresh temporary data directory (SQLite), as a test needs it.
enum TestServer {
    static func configuration(_ extra: [String: String] = [:]) throws -> ServerConfiguration {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-server-test-\(UUID().uuidString)").path
        return try ServerConfiguration.load(.development, from: ["PORTVAKT_DATA_DIR": directory].merging(extra) { $1 })
    }

    /// A logger that redacts like production and keeps every line in `sink`.
    static func logger(into sink: LogSink) -> Logger {
        var logger = Logger(label: "portvakt.test") { _ in RedactingLogHandler(wrapping: sink.handler()) }
        logger.logLevel = .trace
        return logger
    }
}
