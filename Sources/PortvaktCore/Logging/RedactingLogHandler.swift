import Logging

/// Wraps any log handler and redacts messages and metadata before they reach it, with control
/// characters escaped so that no logged value can forge a line (see ``Redactor``). Install it once at start-up with `LoggingSystem.bootstrap`.
///
/// The logger's metadata is kept here and redacted when an event is logged, not when it is set:
/// libraries set metadata on every query (PostgresNIO its connection id), and most of it is never
/// logged; redacting it on each set was a visible share of a request's CPU.
public struct RedactingLogHandler: LogHandler {
    private var upstream: any LogHandler
    public var metadata: Logger.Metadata = [:]

    public init(wrapping upstream: any LogHandler) {
        self.upstream = upstream
    }

    public var logLevel: Logger.Level {
        get { upstream.logLevel }
        set { upstream.logLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { upstream.metadataProvider }
        set { upstream.metadataProvider = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = "\(Redactor.sanitize(event.message.description))"
        let merged = metadata.merging(event.metadata ?? [:]) { _, forEvent in forEvent }
        event.metadata = merged.isEmpty ? nil : Self.redact(merged)
        upstream.log(event: event)
    }

    static func redact(_ metadata: Logger.Metadata) -> Logger.Metadata {
        metadata.reduce(into: [:]) { result, entry in result[entry.key] = redact(entry.value, key: entry.key) }
    }

    static func redact(_ value: Logger.Metadata.Value, key: String) -> Logger.Metadata.Value {
        if Redactor.isSecretKey(key) { return .string(Redactor.placeholder) }
        switch value {
        case .string(let text): return .string(Redactor.sanitize(text))
        case .stringConvertible(let convertible): return .string(Redactor.sanitize(convertible.description))
        case .array(let values): return .array(values.map { redact($0, key: "") })
        case .dictionary(let dictionary): return .dictionary(redact(dictionary))
        }
    }
}
