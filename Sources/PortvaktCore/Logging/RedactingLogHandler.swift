import Logging

/// Wraps any log handler and redacts messages and metadata before they reach it, with control
/// characters escaped so that no logged value can forge a line (see ``Redactor``). Install it once at start-up with `LoggingSystem.bootstrap`.
public struct RedactingLogHandler: LogHandler {
    private var upstream: any LogHandler

    public init(wrapping upstream: any LogHandler) {
        self.upstream = upstream
    }

    public var logLevel: Logger.Level {
        get { upstream.logLevel }
        set { upstream.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { upstream.metadata }
        set { upstream.metadata = Self.redact(newValue) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { upstream[metadataKey: key] }
        set { upstream[metadataKey: key] = newValue.map { Self.redact($0, key: key) } }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { upstream.metadataProvider }
        set { upstream.metadataProvider = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = "\(Redactor.sanitize(event.message.description))"
        event.metadata = event.metadata.map(Self.redact)
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
