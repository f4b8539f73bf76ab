import Foundation
import Logging
import PortvaktTestSupport
import ServiceLifecycle
import Synchronization
import Testing

@testable import PortvaktServer

/// The one outbox mechanism (issue 48 item 7) on an outbox in memory: what it claims, delivers,
/// retries and gives up, how many it sends at once, what it finishes at shutdown, and what it logs.
@Suite("Outbox runner: claim, deliver, retry, give up")
struct OutboxRunnerTests {
    @Test("A failure is retried until delivered; the last attempt, or a permanent refusal, gives up; the log says what `logged` says, never the receiver's words")
    func retriesAndGivesUp() async throws {
        let queue = MemoryQueue(items: [1, 2, 3], outcomes: [
            1: [.failed(problem: "answered 503", logged: ["problem": "answered 503"]), .delivered],
            2: Array(repeating: .failed(problem: "answered 500", logged: ["problem": "answered 500"]), count: 3),
            3: [.failed(problem: "550 no such user kari@example.no", logged: ["problem": "no such user"], permanent: true)],
        ])
        let logs = LogSink()
        try await Self.run(queue, logs: logs, maxAttempts: 3) { $0.finished.count == 3 }
        let state = queue.state.withLock { $0 }
        #expect(state.delivered == [1])
        #expect(state.failures[1]?.map { $0 != nil } == [true])
        #expect(state.failures[2]?.map { $0 != nil } == [true, true, false], "retried twice, dead after the third attempt")
        #expect(state.failures[3]?.map { $0 != nil } == [false], "a permanent refusal gives up at once")
        #expect(state.recordedProblems[3] == ["550 no such user kari@example.no"], "administrators see the receiver's words")
        #expect(!logs.text.contains("kari@example.no"), "the log does not")
        #expect(logs.entries.filter { $0.hasPrefix("info Test delivered ") }.count == 1)
        #expect(logs.entries.filter { $0.hasPrefix("notice Test dead ") }.count == 2)
        #expect(logs.entries.filter { $0.hasPrefix("notice Test retrying ") }.count == 3)
    }

    @Test("No more than `capacity` deliveries at once, and every message delivered once")
    func capacity() async throws {
        let queue = MemoryQueue(items: Array(1...12), outcomes: [:], deliveryTime: .milliseconds(40))
        try await Self.run(queue, capacity: 3) { $0.finished.count == 12 }
        let state = queue.state.withLock { $0 }
        #expect(state.mostInFlight == 3)
        #expect(state.delivered.sorted() == Array(1...12))
    }

    @Test("At shutdown the deliveries in flight finish and are recorded, and nothing more is claimed")
    func shutdown() async throws {
        let queue = MemoryQueue(items: Array(1...6), outcomes: [:], deliveryTime: .milliseconds(300))
        try await Self.run(queue, capacity: 2) { $0.inFlight == 2 }
        let state = queue.state.withLock { $0 }
        #expect(state.delivered.count == 2, "the two in flight were recorded after the shutdown began")
        #expect(state.claimed.count == 2, "nothing claimed after")
        #expect(state.inFlight == 0)
    }

    /// Runs the runner until `done` holds of the queue's state, then shuts it down gracefully.
    private static func run(
        _ queue: MemoryQueue, logs: LogSink = LogSink(), maxAttempts: Int = 5, capacity: Int = 4,
        until done: @escaping @Sendable (MemoryQueue.State) -> Bool
    ) async throws {
        let logger = Logger(label: "outbox-runner-test") { _ in logs.handler() }
        let runner = OutboxRunner(
            queue: queue, policy: RetryPolicy(maxAttempts: maxAttempts), telemetry: .test, logger: logger, now: { Date() },
            interval: .milliseconds(10), capacity: capacity, lease: 60
        )
        let group = ServiceGroup(configuration: .init(services: [RunnerService(runner: runner)], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let deadline = ContinuousClock.now + .seconds(10)
            while !queue.state.withLock({ done($0) }), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(queue.state.withLock { done($0) }, "within 10 s")
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}

private struct RunnerService: Service, CustomStringConvertible {
    let runner: OutboxRunner<MemoryQueue>
    var description: String { "RunnerService" }
    func run() async throws { await runner.run() }
}

private extension OutboxTelemetry {
    static let test = OutboxTelemetry(
        span: "test delivery", unreadable: "Test unreadable", delivered: "Test delivered", deliveredAfterClaimEnded: "Test late",
        retrying: "Test retrying", dead: "Test dead", unrecorded: "Test unrecorded", deliveryLatency: { _ in }
    )
}

/// An outbox in memory: each message answers with its outcomes in turn (then `.delivered`); a
/// failure with a next attempt is due again at once.
final class MemoryQueue: OutboxQueue {
    struct Item: OutboxItem {
        let id: Int
        let attempts: Int
        let queuedAt = Date()
        var logMetadata: Logger.Metadata { ["item": "\(id)"] }
        var spanAttributes: [String: String] { [:] }
    }

    struct State: Sendable {
        var due: [Item]
        var outcomes: [Int: [DeliveryOutcome]]
        var claimed: [Int] = []
        var delivered: [Int] = []
        /// Each failed attempt's next attempt (nil: dead).
        var failures: [Int: [Date?]] = [:]
        var recordedProblems: [Int: [String]] = [:]
        var inFlight = 0
        var mostInFlight = 0
        var finished: Set<Int> = []
    }

    let state: Mutex<State>
    let deliveryTime: Duration

    init(items: [Int], outcomes: [Int: [DeliveryOutcome]], deliveryTime: Duration = .zero) {
        state = Mutex(State(due: items.map { Item(id: $0, attempts: 0) }, outcomes: outcomes))
        self.deliveryTime = deliveryTime
    }

    func claimDue(claimID: String, lease: TimeInterval, limit: Int, now: Date) async throws -> [Item] {
        state.withLock { state in
            let taken = Array(state.due.prefix(limit))
            state.due.removeFirst(taken.count)
            state.claimed += taken.map(\.id)
            return taken
        }
    }

    func deliver(_ message: Item) async -> DeliveryOutcome {
        state.withLock { state in
            state.inFlight += 1
            state.mostInFlight = max(state.mostInFlight, state.inFlight)
        }
        try? await Task.sleep(for: deliveryTime)
        return state.withLock { state in
            state.inFlight -= 1
            return state.outcomes[message.id]?.isEmpty == false ? state.outcomes[message.id]!.removeFirst() : .delivered
        }
    }

    func markDelivered(_ message: Item, claimID: String, now: Date) async throws -> Bool {
        state.withLock { state in
            state.delivered.append(message.id)
            state.finished.insert(message.id)
        }
        return true
    }

    func markFailed(_ message: Item, claimID: String, error: String, nextAttempt: Date?, now: Date) async throws -> Bool {
        state.withLock { state in
            state.failures[message.id, default: []].append(nextAttempt)
            state.recordedProblems[message.id, default: []].append(error)
            if nextAttempt == nil { state.finished.insert(message.id) } else { state.due.append(Item(id: message.id, attempts: message.attempts + 1)) }
        }
        return true
    }
}
