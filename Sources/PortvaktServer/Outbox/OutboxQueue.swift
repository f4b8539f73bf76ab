import Foundation

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
