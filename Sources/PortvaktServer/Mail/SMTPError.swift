/// Why a message was not sent: one line for the log and the outbox's `last_error`, with the
/// server's reply when it gave one. Never holds a password or a message body.
struct SMTPError: Error, Sendable, CustomStringConvertible {
    enum Code: Sendable, Equatable {
        /// No connection: the host is unknown, refuses, or did not answer in time.
        case connectionFailed
        /// The conversation took longer than the client's timeout.
        case timedOut
        /// The server closed the connection, or sent something that is not SMTP.
        case protocolViolation
        /// TLS is required and the server does not offer STARTTLS.
        case startTLSUnavailable
        /// The TLS handshake failed (an untrusted certificate, a name that does not match).
        case tlsFailed
        /// Credentials are configured but would cross the network unencrypted.
        case authenticationNeedsTLS
        /// The server offers no AUTH PLAIN, or refused the credentials.
        case authenticationFailed
        /// The server refused a command (the sender, the recipient, the message).
        case rejected
        /// The message cannot be sent as it is (a header with a line break).
        case invalidMessage
    }

    let code: Code
    let reason: String
    /// The server's answer, when the failure is one.
    let reply: SMTPReply?

    init(_ code: Code, _ reason: String, reply: SMTPReply? = nil) {
        self.code = code
        self.reason = reason
        self.reply = reply
    }

    /// Sending this message again will not help: the server refused it for good (a 5xx answer
    /// to the sender, the recipient or the content), or it cannot be written. A problem of the
    /// connection or the configuration (TLS, credentials) is retried: fixing it delivers the mail.
    var isPermanent: Bool {
        switch code {
        case .invalidMessage: true
        case .rejected: (reply?.code ?? 0) >= 500
        default: false
        }
    }

    var description: String {
        guard let reply else { return reason }
        return "\(reason): \(reply.code) \(String(reply.lines.joined(separator: " ").prefix(160)))"
    }
}
