import Logging

/// What one outbox's span, log lines and latency metric are called: each outbox keeps its own
/// words, which operators search for.
struct OutboxTelemetry: Sendable {
    /// The span around one delivery and the recording of its outcome.
    let span: String
    /// The claim failed (the database is unreachable).
    let unreadable: Logger.Message
    let delivered: Logger.Message
    /// Delivered, but the lease ran out first: another worker may hold the message now.
    let deliveredAfterClaimEnded: Logger.Message
    let retrying: Logger.Message
    let dead: Logger.Message
    /// The outcome could not be written; the message is delivered again after the lease.
    let unrecorded: Logger.Message
    /// Records the seconds from queueing to delivery.
    let deliveryLatency: @Sendable (Double) -> Void
}
