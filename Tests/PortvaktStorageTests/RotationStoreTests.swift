import Crypto
import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// The rotation transaction and login flows, with an injected clock.
@Suite("Refresh rotation and login flows in the store")
struct RotationStoreTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("Rotate; repeat while the successor is unused, however late; reuse once the chain moved on", arguments: TestDatabase.kinds)
    func rotationRules(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let session = try await SessionTokenTests.session(in: store, now: Self.start)
            let h = SessionTokenTests.hash
            _ = try await store.insertRefreshToken(sessionID: session.id, tokenHash: h("t0"), expiresAt: Self.start.addingTimeInterval(86400), now: Self.start)
            func rotate(_ token: String, to successor: String, at seconds: TimeInterval) async throws -> RefreshRotation {
                try await store.rotateRefreshToken(
                    hash: h(token), successorHash: h(successor), clientID: "no.portvakt.app", idleLifetime: 3600,
                    now: Self.start.addingTimeInterval(seconds)
                )
            }
            guard case .rotated = try await rotate("t0", to: "t1", at: 100) else { Issue.record("first use rotates"); return }
            guard case .repeated = try await rotate("t0", to: "t1", at: 109) else { Issue.record("repeat at once"); return }
            // The answer was lost: a retry half an hour later still gets the unused successor.
            guard case .repeated = try await rotate("t0", to: "t1", at: 1900) else { Issue.record("late repeat"); return }
            guard case .rotated = try await rotate("t1", to: "t2", at: 1950) else { Issue.record("t1 rotates"); return }
            guard case .reused = try await rotate("t0", to: "t1", at: 1951) else { Issue.record("the predecessor after its successor was used is reuse"); return }
            guard case .expired = try await rotate("t2", to: "t3", at: 1952) else { Issue.record("the session died with the reuse"); return }
            let revoked = try await store.session(id: session.id)
            #expect(revoked?.revokedReason == "refresh_token_reuse")
            let wrongClient = try await store.rotateRefreshToken(
                hash: h("t2"), successorHash: h("t3"), clientID: "portvakt-cli", idleLifetime: 3600, now: Self.start
            )
            #expect(wrongClient == .unknown)
        }
    }

    @Test("Each rotation moves the idle expiry, never past the absolute one", arguments: TestDatabase.kinds)
    func idleExpiryMoves(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let session = try await SessionTokenTests.session(in: store, now: Self.start)
            let h = SessionTokenTests.hash
            _ = try await store.insertRefreshToken(sessionID: session.id, tokenHash: h("a"), expiresAt: Self.start.addingTimeInterval(86400), now: Self.start)
            _ = try await store.rotateRefreshToken(
                hash: h("a"), successorHash: h("b"), clientID: "no.portvakt.app", idleLifetime: 3600, now: Self.start.addingTimeInterval(3000)
            )
            let moved = try await store.session(id: session.id)
            #expect(moved?.idleExpiresAt == Self.start.addingTimeInterval(6600).millisecondsSince1970)
            let late = try await store.rotateRefreshToken(
                hash: h("b"), successorHash: h("c"), clientID: "no.portvakt.app", idleLifetime: 3600, now: Self.start.addingTimeInterval(6600)
            )
            guard case .expired = late else { Issue.record("idle for an hour: expired, got \(late)"); return }
        }
    }

    @Test("Sessions that ended a day ago are purged with their refresh tokens; live and recently ended ones stay", arguments: TestDatabase.kinds)
    func endedSessionsArePurged(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let h = SessionTokenTests.hash
            let idle = try await SessionTokenTests.session(in: store, now: Self.start)  // idle expiry: start + 1 h
            let revoked = try await SessionTokenTests.session(in: store, now: Self.start.addingTimeInterval(86400))
            let live = try await SessionTokenTests.session(in: store, now: Self.start.addingTimeInterval(86400 + 3600))
            for (session, token) in [(idle, "idle"), (revoked, "revoked"), (live, "live")] {
                _ = try await store.insertRefreshToken(sessionID: session.id, tokenHash: h(token), expiresAt: Self.start.addingTimeInterval(9 * 86400), now: Self.start)
            }
            try await store.revokeSession(id: revoked.id, reason: "logout", now: Self.start.addingTimeInterval(86400))
            let purged = try await store.purgeEndedSessions(retention: 86400, now: Self.start.addingTimeInterval(86400 + 3601))
            #expect(purged == 1)
            #expect(try await store.session(id: idle.id) == nil)
            #expect(try await store.refreshToken(hash: h("idle")) == nil, "the tokens went with the session")
            #expect(try await store.session(id: revoked.id) != nil, "ended less than a day ago")
            #expect(try await store.purgeEndedSessions(retention: 86400, now: Self.start.addingTimeInterval(2 * 86400 + 1)) == 1)
            #expect(try await store.session(id: live.id) != nil)
            #expect(try await store.refreshToken(hash: h("live")) != nil)
        }
    }

    @Test("A login flow is taken once, and not after it expires; purge removes the expired", arguments: TestDatabase.kinds)
    func loginFlows(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let sealed = SealedValue(keyID: "k", combined: Data([1, 2, 3]))
            let h = SessionTokenTests.hash
            _ = try await store.insertLoginFlow(kind: "vipps", stateHash: h("s1"), expiresAt: Self.start.addingTimeInterval(600), now: Self.start) { _ in sealed }
            _ = try await store.insertLoginFlow(kind: "vipps", stateHash: h("s2"), expiresAt: Self.start.addingTimeInterval(600), now: Self.start) { _ in sealed }
            let peeked = try await store.loginFlow(stateHash: h("s1"), now: Self.start)
            #expect(peeked?.payload == sealed)
            let taken = try await store.takeLoginFlow(stateHash: h("s1"), now: Self.start)
            let again = try await store.takeLoginFlow(stateHash: h("s1"), now: Self.start)
            let expired = try await store.loginFlow(stateHash: h("s2"), now: Self.start.addingTimeInterval(600))
            let purged = try await store.purgeExpiredLoginFlows(now: Self.start.addingTimeInterval(600))
            #expect(taken != nil)
            #expect(again == nil)
            #expect(expired == nil)
            #expect(purged == 1)
        }
    }
}
