import Foundation

/// A write the app made while offline (or that failed for lack of network): sent later, in
/// order, with its `Idempotency-Key`, so that a replay the server has seen creates nothing new.
public struct QueuedWrite: Sendable, Hashable, Codable, Identifiable {
    /// Also the `Idempotency-Key`.
    public let id: String
    public let method: String
    public let path: String
    public let body: Data
    /// The step-up action the write needs (`expenses.submit`), if any: it waits for one.
    public let stepUp: String?
    /// The user whose write it is: only a session of that user sends it (nil: written before
    /// writes recorded their user; nobody's session sends it without the person's word).
    public let userID: String?
    public let createdAt: Date

    public init(
        id: String = UUID().uuidString.lowercased(), method: String = "POST", path: String, body: Data, stepUp: String? = nil,
        userID: String?, createdAt: Date
    ) {
        self.id = id
        self.userID = userID
        self.method = method
        self.path = path
        self.body = body
        self.stepUp = stepUp
        self.createdAt = createdAt
    }
}

/// How sending one queued write went.
public enum ReplayOutcome: Sendable, Hashable {
    /// The server took it (2xx, a replay included): it leaves the queue.
    case sent
    /// No network, or the server is unavailable: stop, keep it and the rest for later.
    case unavailable
    /// It needs a fresh step-up first: stop until the user gives one.
    case needsStepUp
    /// The server refused it for good (4xx other than 401/429): it leaves the queue, reported.
    case refused(status: Int)
}

/// The writes waiting for the network, in secure storage so that they survive restarts.
public actor OfflineQueue {
    private let storage: any SecureStorage

    public init(storage: any SecureStorage) {
        self.storage = storage
    }

    public func enqueue(_ write: QueuedWrite) async throws {
        var writes = try await pending()
        guard !writes.contains(where: { $0.id == write.id }) else { return }
        writes.append(write)
        try await save(writes)
    }

    public func pending() async throws -> [QueuedWrite] {
        guard let data = try await storage.read(.offlineQueue) else { return [] }
        return try JSONDecoder().decode([QueuedWrite].self, from: data)
    }

    /// What a replay did.
    public struct Report: Sendable, Hashable {
        public var sent: [String] = []
        public var refused: [String] = []
        /// The write it stopped at, and why (`unavailable` or `needsStepUp`); nil when the queue is empty.
        public var stoppedAt: String?
        public var stopReason: ReplayOutcome?
        /// Writes of another login on this device, left alone (never sent as this user).
        public var otherLogins = 0
    }

    private var replaying = false

    /// Sends `userID`'s queued writes in order until one cannot go now; another login's stay,
    /// sealed, counted in the report (review III, item 3: never sent as someone else). Each write
    /// leaves the queue as soon as the server has answered it, so a crash mid-replay repeats at
    /// most one (and the server's idempotency makes that harmless). Runs one replay at a time.
    public func replay(as userID: String, _ send: @Sendable (QueuedWrite) async -> ReplayOutcome) async throws -> Report {
        var report = Report()
        guard !replaying else { return report }
        replaying = true
        defer { replaying = false }
        for write in try await pending() {
            guard write.userID == userID else {
                report.otherLogins += 1
                continue
            }
            let outcome = await send(write)
            switch outcome {
            case .sent:
                report.sent.append(write.id)
                try await remove(write.id)
            case .refused:
                report.refused.append(write.id)
                try await remove(write.id)
            case .unavailable, .needsStepUp:
                report.stoppedAt = write.id
                report.stopReason = outcome
                return report
            }
        }
        return report
    }

    /// `userID`'s queued writes, in order.
    public func pending(of userID: String?) async throws -> [QueuedWrite] {
        guard let userID else { return [] }
        return try await pending().filter { $0.userID == userID }
    }

    /// Deletes `userID`'s writes only (a logout that gives them up); returns how many.
    @discardableResult
    public func discard(of userID: String?) async throws -> Int {
        guard let userID else { return 0 }
        let writes = try await pending()
        let kept = writes.filter { $0.userID != userID }
        try await save(kept)
        return writes.count - kept.count
    }

    /// How many queued writes are not `userID`'s (another login's on this device).
    public func otherLogins(than userID: String?) async throws -> Int {
        try await pending().filter { $0.userID == nil || $0.userID != userID }.count
    }

    /// Deletes the writes that are not `userID`'s, with the person's consent; returns how many.
    @discardableResult
    public func discardOtherLogins(than userID: String?) async throws -> Int {
        let writes = try await pending()
        let kept = writes.filter { $0.userID != nil && $0.userID == userID }
        try await save(kept)
        return writes.count - kept.count
    }

    private func remove(_ id: String) async throws {
        try await save(try await pending().filter { $0.id != id })
    }

    private func save(_ writes: [QueuedWrite]) async throws {
        if writes.isEmpty {
            try await storage.delete(.offlineQueue)
        } else {
            try await storage.write(try JSONEncoder().encode(writes), for: .offlineQueue)
        }
    }
}
