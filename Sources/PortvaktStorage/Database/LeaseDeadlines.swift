import Synchronization

/// Deadlines for connection leases, watched by one ticker for all of them.
///
/// A timer per lease (`Task.sleep`) cost every query a `dispatch_after`: a syscall and a wake-up
/// of the dispatch manager thread, about 8 % of the server's CPU under load on PostgreSQL. Here a
/// lease registers its deadline, and a ticker that runs only while leases wait gives up on the
/// overdue ones, up to one tick late.
///
/// A deadline gives up only while no lease at all has started for `timeout`: that is a database
/// that cannot be reached. A pool that is busy but serving (a burst of requests) keeps its
/// waiters in line, up to `patience`.
final class LeaseDeadlines: Sendable {
    private enum Lease {
        case asked(deadline: ContinuousClock.Instant)
        case waiting(deadline: ContinuousClock.Instant, CheckedContinuation<Bool, Never>)
        case started
    }

    private struct State {
        var leases: [UInt64: Lease] = [:]
        var nextID: UInt64 = 0
        var ticking = false
        /// When a lease last got its connection: the pool is serving.
        var lastStart: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let timeout: Duration
    private let patience: Duration
    private let tick: Duration

    init(timeout: Duration, patience: Duration, tick: Duration = .milliseconds(250)) {
        self.timeout = timeout
        self.patience = patience
        self.tick = tick
    }

    /// Registers a lease asked for now; call ``started(_:)`` once it holds a connection.
    func ask() -> UInt64 {
        let deadline = ContinuousClock.now + timeout
        let (id, startTicker) = state.withLock { state in
            state.nextID += 1
            state.leases[state.nextID] = .asked(deadline: deadline)
            defer { state.ticking = true }
            return (state.nextID, !state.ticking)
        }
        if startTicker { Task.detached { await self.watch() } }
        return id
    }

    func started(_ id: UInt64) {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            state.lastStart = ContinuousClock.now
            switch state.leases[id] {
            case .asked: state.leases[id] = .started; return nil
            case .waiting(_, let continuation): state.leases[id] = nil; return continuation
            case .started, nil: return nil
            }
        }
        waiter?.resume(returning: true)
    }

    /// True once the lease started or its operation ended; false when its deadline passed first.
    func outcome(_ id: UInt64) async -> Bool {
        await withCheckedContinuation { continuation in
            let answer: Bool? = state.withLock { state in
                switch state.leases[id] {
                case .asked(let deadline): state.leases[id] = .waiting(deadline: deadline, continuation); return nil
                case .started: state.leases[id] = nil; return true
                // Gone: the operation ended before this asked.
                case .waiting, nil: return true
                }
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Forgets a lease whose operation ended (it may never have started: the pool failed it).
    func finish(_ id: UInt64) {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            defer { state.leases[id] = nil }
            if case .waiting(_, let continuation) = state.leases[id] { return continuation }
            return nil
        }
        waiter?.resume(returning: true)
    }

    /// Whether a lease waiting since `deadline - timeout` is given up `now`: past its deadline
    /// while no lease has started for `timeout` (the database cannot be reached), or past its
    /// patience however busy the pool is.
    static func givesUp(
        deadline: ContinuousClock.Instant, now: ContinuousClock.Instant, lastStart: ContinuousClock.Instant?, timeout: Duration, patience: Duration
    ) -> Bool {
        guard deadline <= now else { return false }
        let serving = lastStart.map { now - $0 < timeout } ?? false
        return !serving || deadline - timeout + patience <= now
    }

    private func watch() async {
        while true {
            try? await Task.sleep(for: tick)
            let now = ContinuousClock.now
            let (overdue, keepTicking) = state.withLock { state in
                var overdue: [CheckedContinuation<Bool, Never>] = []
                for (id, lease) in state.leases {
                    if case .waiting(let deadline, let continuation) = lease,
                       Self.givesUp(deadline: deadline, now: now, lastStart: state.lastStart, timeout: timeout, patience: patience) {
                        overdue.append(continuation)
                        state.leases[id] = nil
                    }
                }
                state.ticking = !state.leases.isEmpty
                return (overdue, state.ticking)
            }
            for continuation in overdue { continuation.resume(returning: false) }
            if !keepTicking { return }
        }
    }
}
