import Foundation

/// How often an outbox tries a message, and how long it waits between tries: 2 s, 4 s, 8 s …
/// (at most 10 minutes), each wait shortened by up to half at random so that retries after an
/// outage do not arrive together.
struct RetryPolicy: Sendable {
    /// Attempts in all, the first included; after the last the message is `dead`.
    let maxAttempts: Int

    /// When to try again after `attempts` attempts, or nil when the message gives up: after its
    /// last attempt, or at once when `permanent` (another attempt would fail the same way).
    func nextAttempt(afterAttempt attempts: Int, permanent: Bool = false, now: Date) -> Date? {
        permanent || attempts >= maxAttempts ? nil : now.addingTimeInterval(Self.backoff(afterAttempt: attempts))
    }

    /// 2^attempt seconds, at most ten minutes, less up to half at random.
    static func backoff(afterAttempt attempt: Int) -> TimeInterval {
        let full = min(pow(2, Double(min(attempt, 20))), 600)
        return full * Double.random(in: 0.5...1.0)
    }
}
