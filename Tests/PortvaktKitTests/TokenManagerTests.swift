import Foundation
import PortvaktKit
import Synchronization
import Testing

/// A refresher that counts calls and answers as told, optionally after a gate opens.
private final class ScriptedRefresher: TokenRefresher, Sendable {
    enum Answer: Sendable { case tokens, invalidGrant, networkDown }
    private let state = Mutex<(calls: Int, answer: Answer)>((0, .tokens))
    private let gate: AsyncStream<Void>?
    private let opener: AsyncStream<Void>.Continuation?

    init(answer: Answer = .tokens, gated: Bool = false) {
        state.withLock { $0.answer = answer }
        if gated {
            let (stream, continuation) = AsyncStream<Void>.makeStream()
            gate = stream
            opener = continuation
        } else {
            gate = nil
            opener = nil
        }
    }

    var calls: Int { state.withLock { $0.calls } }
    func open() { opener?.yield(); opener?.finish() }

    func refresh(_ refreshToken: String) async throws -> TokenSet {
        let (call, answer) = state.withLock { state -> (Int, Answer) in
            state.calls += 1
            return (state.calls, state.answer)
        }
        if let gate { for await _ in gate { break } }
        try await Task.sleep(for: .milliseconds(20))
        switch answer {
        case .tokens: return TokenSet(accessToken: "access-\(call)", refreshToken: "refresh-\(call)", expiresAt: Date().addingTimeInterval(600))
        case .invalidGrant: throw TokenRefreshError.sessionExpired
        case .networkDown: throw URLError(.notConnectedToInternet)
        }
    }
}

@Suite("Token manager")
struct TokenManagerTests {
    private static let expired = TokenSet(accessToken: "old", refreshToken: "refresh-0", expiresAt: Date().addingTimeInterval(-1))

    @Test("50 concurrent callers with an expired access token cause one refresh, and all get its token")
    func oneRefresh() async throws {
        let storage = MemorySecureStorage()
        let refresher = ScriptedRefresher()
        let manager = TokenManager(storage: storage, refresher: refresher)
        try await manager.signedIn(Self.expired)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await manager.accessToken() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(refresher.calls == 1)
        #expect(tokens == ["access-1"])
        #expect(try await storage.read(.refreshToken) == Data("refresh-1".utf8), "the rotated token is stored")
    }

    @Test("A network error keeps the session; invalid_grant ends it")
    func networkErrorKeepsTheSession() async throws {
        let storage = MemorySecureStorage()
        let manager = TokenManager(storage: storage, refresher: ScriptedRefresher(answer: .networkDown))
        try await manager.signedIn(Self.expired)
        await #expect(throws: TokenRefreshError.unavailable) { try await manager.accessToken() }
        #expect(try await manager.hasStoredSession())

        let ending = TokenManager(storage: storage, refresher: ScriptedRefresher(answer: .invalidGrant))
        await #expect(throws: TokenRefreshError.sessionExpired) { try await ending.accessToken() }
        #expect(try await ending.hasStoredSession() == false)
    }

    @Test("A refresh that finishes after a logout writes nothing")
    func lateRefreshAfterLogout() async throws {
        let storage = MemorySecureStorage()
        let refresher = ScriptedRefresher(gated: true)
        let manager = TokenManager(storage: storage, refresher: refresher)
        try await manager.signedIn(Self.expired)
        let pending = Task { try await manager.accessToken() }
        while refresher.calls == 0 { try await Task.sleep(for: .milliseconds(5)) }
        try await manager.logout()
        refresher.open()
        await #expect(throws: TokenRefreshError.superseded) { try await pending.value }
        #expect(try await storage.read(.refreshToken) == nil, "the late successor was not stored")
    }
}

@Suite("Offline queue")
struct OfflineQueueTests {
    @Test("S12.1/S12.4: writes wait in order, survive a restart, and are sent once each when the network returns")
    func replayInOrder() async throws {
        let storage = MemorySecureStorage()
        let queue = OfflineQueue(storage: storage)
        for number in 1...3 {
            try await queue.enqueue(QueuedWrite(path: "/v1/activities", body: Data("{\"n\":\(number)}".utf8), createdAt: Date()))
        }
        let ids = try await queue.pending().map(\.id)
        let offline = try await queue.replay { _ in .unavailable }
        #expect(offline.stoppedAt == ids[0] && offline.sent.isEmpty)

        let restarted = OfflineQueue(storage: storage)
        let seen = Mutex<[String]>([])
        let report = try await restarted.replay { write in
            seen.withLock { $0.append(write.id) }
            return .sent
        }
        #expect(report.sent == ids)
        #expect(seen.withLock { $0 } == ids, "in order, once each")
        #expect(try await restarted.pending().isEmpty)
    }

    @Test("A write that needs a step-up stops the replay until the user gives one; refused writes leave")
    func stepUpWaits() async throws {
        let queue = OfflineQueue(storage: MemorySecureStorage())
        try await queue.enqueue(QueuedWrite(path: "/v1/activities", body: Data("{}".utf8), createdAt: Date()))
        try await queue.enqueue(QueuedWrite(path: "/v1/expenses", body: Data("{}".utf8), stepUp: "expenses.submit", createdAt: Date()))
        try await queue.enqueue(QueuedWrite(path: "/v1/activities", body: Data("{\"bad\":1}".utf8), createdAt: Date()))
        let first = try await queue.replay { $0.stepUp == nil ? .sent : .needsStepUp }
        #expect(first.sent.count == 1 && first.stopReason == .needsStepUp)
        #expect(try await queue.pending().count == 2)
        let second = try await queue.replay { $0.stepUp != nil ? .sent : .refused(status: 422) }
        #expect(second.sent.count == 1 && second.refused.count == 1)
        #expect(try await queue.pending().isEmpty)
    }
}
