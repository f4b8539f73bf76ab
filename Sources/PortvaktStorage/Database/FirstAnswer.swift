import Synchronization

/// Resumes a continuation with the first of several answers that race, and drops the rest.
final class FirstAnswer<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, any Error>?>

    init(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func give(_ answer: Result<Value, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: answer)
    }
}
