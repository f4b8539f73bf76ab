import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `operation`'s answer if it comes within `seconds`; otherwise `URLError(.timedOut)` at once and
/// the operation is cancelled, so a request stalled on a weak network is never waited out (S29.3).
/// `URLRequest.timeoutInterval` alone would not do: it counts idle time, which a trickle resets.
/// A deadline that is not a number of seconds below a year (an app's `.infinity`) is none; a
/// negative one is 0.
func withinDeadline<Value: Sendable>(_ seconds: TimeInterval, _ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
    guard seconds.isFinite, seconds < 365 * 86_400 else { return try await operation() }
    let seconds = max(seconds, 0)
    let once = ResumeOnce<Value>()
    let work = Task {
        do { once.resume(returning: try await operation()) } catch { once.resume(throwing: error) }
    }
    let timer = Task {
        try await Task.sleep(for: .seconds(seconds))
        if once.finish(.failure(URLError(.timedOut))) { work.cancel() }
    }
    defer { timer.cancel() }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { once.set($0) }
    } onCancel: {
        work.cancel()
        once.resume(throwing: CancellationError())
    }
}
