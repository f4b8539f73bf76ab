import Logging

/// What one attempt to deliver an outbox message came to.
enum DeliveryOutcome: Sendable {
    /// The receiver took the message.
    case delivered
    /// The message was not delivered.
    /// - problem: recorded as the message's last error.
    /// - permanent: another attempt would fail the same way, so the message gives up now.
    /// - logged: what the log line says of the problem instead of `problem`, when that may
    ///   repeat personal data (an SMTP server's reply may quote the recipient's address).
    case failed(problem: String, permanent: Bool = false, logged: Logger.Metadata? = nil)
}
