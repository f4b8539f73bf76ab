import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import PortvaktKit
import Testing

@Suite("A request's deadline")
struct DeadlineTests {
    @Test("An answer within the deadline is returned; a stalled one ends in URLError(.timedOut) at the deadline and is cancelled", .timeLimit(.minutes(1)))
    func stalledRequestEndsAtItsDeadline() async throws {
        #expect(try await withinDeadline(5) { 42 } == 42)
        let cancelled = Locked(false)
        let (never, _) = AsyncStream<Void>.makeStream()
        await #expect(throws: URLError(.timedOut)) {
            try await withinDeadline(0.05) {
                await withTaskCancellationHandler {
                    for await _ in never {}
                } onCancel: {
                    cancelled.withLock { $0 = true }
                }
            }
        }
        #expect(cancelled.withLock { $0 }, "the stalled request is cancelled, not left running")
    }

    @Test("An app's deadline of .infinity, NaN or the largest number is no deadline and a negative one is 0: neither traps", .timeLimit(.minutes(1)))
    func unusualDeadlinesDoNotTrap() async throws {
        #expect(try await withinDeadline(.infinity) { "answer" } == "answer")
        #expect(try await withinDeadline(.nan) { "answer" } == "answer")
        #expect(try await withinDeadline(.greatestFiniteMagnitude) { "answer" } == "answer")
        let (never, _) = AsyncStream<Void>.makeStream()
        await #expect(throws: URLError(.timedOut)) {
            try await withinDeadline(-1) { for await _ in never {} }
        }
    }
}
