@testable import PortvaktStorage
import Testing

@Suite("Connection lease deadlines")
struct LeaseDeadlinesTests {
    @Test("A lease that never gets its connection is given up after the timeout, one tick late at most")
    func overdue() async {
        let deadlines = LeaseDeadlines(timeout: .milliseconds(200), tick: .milliseconds(50))
        let asked = ContinuousClock.now
        let lease = deadlines.ask()
        #expect(await deadlines.outcome(lease) == false)
        let waited = ContinuousClock.now - asked
        #expect(waited >= .milliseconds(200) && waited < .milliseconds(1000), "\(waited)")
    }

    @Test("A lease that starts, before or while its outcome is awaited, or whose operation ends first, is not given up")
    func startedOrEnded() async throws {
        let deadlines = LeaseDeadlines(timeout: .milliseconds(200), tick: .milliseconds(50))
        let early = deadlines.ask()
        deadlines.started(early)
        #expect(await deadlines.outcome(early))

        let late = deadlines.ask()
        async let outcome = deadlines.outcome(late)
        try await Task.sleep(for: .milliseconds(20))
        deadlines.started(late)
        #expect(await outcome)

        let ended = deadlines.ask()
        deadlines.finish(ended)
        #expect(await deadlines.outcome(ended))
        // Long after the timeout, nothing is resumed twice or given up late.
        try await Task.sleep(for: .milliseconds(400))
    }
}
