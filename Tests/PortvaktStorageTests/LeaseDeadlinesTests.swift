@testable import PortvaktStorage
import Testing

@Suite("Connection lease deadlines")
struct LeaseDeadlinesTests {
    /// Not before the timeout, and in the end: how late depends on when the machine runs the
    /// ticker (a parallel test run on two cores delayed it by 4.5 s), so the upper bound only
    /// tells "given up" from "waits for ever".
    @Test("A lease that never gets its connection is given up after the timeout, never before it")
    func overdue() async {
        let deadlines = LeaseDeadlines(timeout: .milliseconds(200), patience: .seconds(4), tick: .milliseconds(50))
        let asked = ContinuousClock.now
        let lease = deadlines.ask()
        #expect(await deadlines.outcome(lease) == false)
        let waited = ContinuousClock.now - asked
        #expect(waited >= .milliseconds(200) && waited < .seconds(30), "\(waited)")
    }

    @Test("A lease that starts, before or while its outcome is awaited, or whose operation ends first, is not given up")
    func startedOrEnded() async throws {
        let deadlines = LeaseDeadlines(timeout: .milliseconds(200), patience: .seconds(4), tick: .milliseconds(50))
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

    @Test("A waiting lease is given up past its deadline only while no other lease has started for the timeout (the database is down); while the pool hands out connections (a burst) it waits its turn, up to the patience")
    func busyIsNotDown() {
        let asked = ContinuousClock.now
        let timeout = Duration.milliseconds(1500), patience = Duration.seconds(4)
        func givesUp(at elapsed: Duration, lastStartAgo: Duration?) -> Bool {
            let now = asked + elapsed
            return LeaseDeadlines.givesUp(deadline: asked + timeout, now: now, lastStart: lastStartAgo.map { now - $0 }, timeout: timeout, patience: patience)
        }
        #expect(!givesUp(at: .seconds(1), lastStartAgo: nil), "never before the deadline")
        #expect(givesUp(at: .milliseconds(1600), lastStartAgo: nil), "nothing ever started: down")
        #expect(givesUp(at: .milliseconds(1600), lastStartAgo: .milliseconds(1500)), "nothing started for the timeout: down")
        #expect(!givesUp(at: .milliseconds(1600), lastStartAgo: .milliseconds(10)), "others are served: busy, it waits")
        #expect(!givesUp(at: .milliseconds(3900), lastStartAgo: .milliseconds(10)))
        #expect(givesUp(at: .seconds(4), lastStartAgo: .milliseconds(10)), "not past the patience")
    }
}
