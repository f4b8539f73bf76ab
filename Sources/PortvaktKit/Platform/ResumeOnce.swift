/// A continuation resumed exactly once, whichever comes first: the platform's answer or a
/// cancellation (the platform may still answer after the task was cancelled).
public final class ResumeOnce<Value: Sendable>: Sendable {
    private enum State {
        case waiting
        case armed(CheckedContinuation<Value, any Error>)
        case done(Result<Value, any Error>?)
    }

    private let state = Locked<State>(.waiting)

    public init() {}

    public func set(_ continuation: CheckedContinuation<Value, any Error>) {
        let early: Result<Value, any Error>? = state.withLock { state in
            switch state {
            case .waiting:
                state = .armed(continuation)
                return nil
            case .armed:
                return nil
            case .done(let result):
                // Answered (or cancelled) before the continuation existed.
                state = .done(nil)
                return result
            }
        }
        if let early { continuation.resume(with: early) }
    }

    public func resume(returning value: Value) { finish(.success(value)) }
    public func resume(throwing error: any Error) { finish(.failure(error)) }

    /// Whether an answer or a cancel has come (a browser not yet shown is then not shown).
    public var isFinished: Bool {
        state.withLock { if case .done = $0 { true } else { false } }
    }

    /// Whether this call was the one that resumed.
    @discardableResult
    public func finish(_ result: Result<Value, any Error>) -> Bool {
        let action: (CheckedContinuation<Value, any Error>?, Bool) = state.withLock { state in
            switch state {
            case .waiting:
                state = .done(result)
                return (nil, true)
            case .armed(let continuation):
                state = .done(nil)
                return (continuation, true)
            case .done:
                return (nil, false)
            }
        }
        action.0?.resume(with: result)
        return action.1
    }
}
