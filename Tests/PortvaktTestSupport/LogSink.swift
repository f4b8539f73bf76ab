import Foundation
import Logging
import Synchronization

/// Collects every log line, message and metadata, for tests that look for leaks.
public final class LogSink: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    public var text: String { lines.withLock { $0.joined(separator: "\n") } }

    /// Each log event as one string: message and metadata, as the handler received them.
    public var entries: [String] { lines.withLock { $0 } }

    public func handler() -> some LogHandler { Handler(sink: self) }

    private struct Handler: LogHandler {
        let sink: LogSink
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let line = "\(event.level) \(event.message) \(all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))"
            sink.lines.withLock { $0.append(line) }
        }
    }
}
