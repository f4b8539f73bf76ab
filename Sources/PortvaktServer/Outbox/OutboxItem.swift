import Logging
import Tracing

/// An outbox message as ``OutboxRunner`` sees it: how often it was tried, how old it is, and
/// how log lines and spans name it.
protocol OutboxItem: Sendable {
    /// Attempts recorded before this one.
    var attempts: Int { get }
    /// When it was queued, in milliseconds since 1970.
    var createdAt: Int64 { get }
    /// Names the message in log lines: its id and kind, never what it says.
    var logMetadata: Logger.Metadata { get }
    /// Adds what names the message to its delivery's span (the runner adds the attempt).
    func describe(_ attributes: inout SpanAttributes)
}

extension OutboxItem {
    func describe(_ attributes: inout SpanAttributes) {}
}
