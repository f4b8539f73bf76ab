import Foundation
import PortvaktKit
import PortvaktProtocol
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
            try await queue.enqueue(QueuedWrite(path: "/v1/activities", body: Data("{\"n\":\(number)}".utf8), userID: "kari", createdAt: Date()))
        }
        let ids = try await queue.pending().map(\.id)
        let offline = try await queue.replay(as: "kari") { _ in .unavailable }
        #expect(offline.stoppedAt == ids[0] && offline.sent.isEmpty)

        let restarted = OfflineQueue(storage: storage)
        let seen = Mutex<[String]>([])
        let report = try await restarted.replay(as: "kari") { write in
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
        try await queue.enqueue(QueuedWrite(path: "/v1/activities", body: Data("{}".utf8), userID: "kari", createdAt: Date()))
        try await queue.enqueue(QueuedWrite(path: "/v1/expenses", body: Data("{}".utf8), stepUp: "expenses.submit", userID: "kari", createdAt: Date()))
        try await queue.enqueue(QueuedWrite(path: "/v1/activities", body: Data("{\"bad\":1}".utf8), userID: "kari", createdAt: Date()))
        let first = try await queue.replay(as: "kari") { $0.stepUp == nil ? .sent : .needsStepUp }
        #expect(first.sent.count == 1 && first.stopReason == .needsStepUp)
        #expect(try await queue.pending().count == 2)
        let second = try await queue.replay(as: "kari") { $0.stepUp != nil ? .sent : .refused(status: 422) }
        #expect(second.sent.count == 1 && second.refused.count == 1)
        #expect(try await queue.pending().isEmpty)
    }

    @Test("Review III item 3: a write is sent only by its own user's session; another login's stay sealed, counted, and go only with consent")
    func otherLoginsWritesStay() async throws {
        let storage = MemorySecureStorage()
        let queue = OfflineQueue(storage: storage)
        try await queue.enqueue(QueuedWrite(path: "/v1/activities", body: Data("{\"note\":\"Karis\"}".utf8), userID: "kari", createdAt: Date()))
        try await queue.enqueue(QueuedWrite(path: "/v1/activities", body: Data("{\"note\":\"from before\"}".utf8), userID: nil, createdAt: Date()))
        try await queue.enqueue(QueuedWrite(path: "/v1/activities", body: Data("{\"note\":\"Olas\"}".utf8), userID: "ola", createdAt: Date()))
        let sentAsOla = Mutex<[String]>([])
        let ola = try await OfflineQueue(storage: storage).replay(as: "ola") { write in
            sentAsOla.withLock { $0.append(String(decoding: write.body, as: UTF8.self)) }
            return .sent
        }
        #expect(sentAsOla.withLock { $0 } == [#"{"note":"Olas"}"#], "Kari's note is never sent as Ola's")
        #expect(ola.otherLogins == 2)
        #expect(try await queue.otherLogins(than: "ola") == 2)
        let kari = try await queue.replay(as: "kari") { _ in .sent }
        #expect(kari.sent.count == 1 && kari.otherLogins == 1)
        #expect(try await queue.discardOtherLogins(than: "kari") == 1, "the write of unknown owner goes only when asked")
        #expect(try await queue.pending().isEmpty)
    }

    @Test("The session's user is kept beside the refresh token, known offline after a restart, and forgotten at logout")
    func sessionUser() async throws {
        let storage = MemorySecureStorage()
        let claims = Data(#"{"sub":"user-1","exp":9999999999}"#.utf8).base64URLEncoded()
        let tokens = TokenManager(storage: storage, refresher: NeverRefresher())
        try await tokens.signedIn(TokenSet(accessToken: "e30.\(claims).c2ln", refreshToken: "r", expiresAt: Date().addingTimeInterval(600)))
        #expect(await tokens.userID() == "user-1")
        #expect(await TokenManager(storage: storage, refresher: NeverRefresher()).userID() == "user-1", "after a restart, offline")
        _ = try await tokens.logout()
        #expect(await TokenManager(storage: storage, refresher: NeverRefresher()).userID() == nil)
    }
}

private struct NeverRefresher: TokenRefresher {
    func refresh(_ refreshToken: String) async throws -> TokenSet { throw TokenRefreshError.unavailable }
}
