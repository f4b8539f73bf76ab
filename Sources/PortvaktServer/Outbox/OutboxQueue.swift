import Foundation
import Logging

/// One outbox that ``OutboxRunner`` works: where its messages wait, and how one leaves.
///
/// A claim keeps a message from every other worker, on any instance, for its lease; its outcome
/// is recorded only under the claim it was delivered under, so a delivery that outlived its lease
/// changes nothing.
protocol OutboxQueue: Sendable {
    associatedtype Message: OutboxItem

    /// Claims up to `limit` messages that are due, for `lease` seconds.
    func claimDue(claimID: String, lease: TimeInterval, limit: Int, now: Date) async throws -> [Message]
    /// One attempt to deliver the message; it records nothing.
    func deliver(_ message: Message) async -> DeliveryOutcome
    /// - Returns: false when the claim was no longer current: nothing is changed.
    func markDelivered(_ message: Message, claimID: String, now: Date) async throws -> Bool
    /// Records a failed attempt: retried at `nextAttempt`, or `dead` when nil.
    /// - Returns: false when the claim was no longer current: nothing is changed.
    func markFailed(_ message: Message, claimID: String, error: String, nextAttempt: Date?, now: Date) async throws -> Bool
}

/// An outbox message as ``OutboxRunner`` sees it: how often it was tried, how old it is, and
/// how log lines and spans name it.
protocol OutboxItem: Sendable {
    /// Attempts recorded before this one.
    var attempts: Int { get }
    var queuedAt: Date { get }
    /// Names the message in log lines: its id and kind, never what it says.
    var logMetadata: Logger.Metadata { get }
    /// Names the message on its delivery's span (the runner adds the attempt).
    var spanAttributes: [String: String] { get }
}

/// What one attempt to deliver an outbox message came to.
enum DeliveryOutcome: Sendable, Equatable {
    /// The receiver took the message.
    case delivered
    /// The message was not delivered.
    /// - problem: recorded as the message's last error, which administrators see.
    /// - logged: what the log line says of the problem. Said separately, because a receiver's
    ///   words may repeat personal data (an SMTP server's reply may quote the recipient's address).
    /// - permanent: another attempt would fail the same way, so the message gives up now.
    case failed(problem: String, logged: Logger.Metadata, permanent: Bool = false)
}
