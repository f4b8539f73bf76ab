import Crypto
import Foundation
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing

@Suite("Sessions, refresh tokens and authorization codes")
struct SessionTokenTests {
    static func hash(_ text: String) -> Data { Data(SHA256.hash(data: Data(text.utf8))) }

    static func session(in store: PortvaktStore, now: Date = Date()) async throws -> Session {
        let user = try await store.createUser(displayName: "Ada")
        return try await store.createSession(
            userID: user.id, clientID: "no.portvakt.app", amr: ["hwk", "face"], acr: "urn:bankid:bid",
            authTime: now, idleLifetime: 3600, absoluteLifetime: 86400, now: now
        )
    }

    @Test("Sessions expire idle and absolute, and revoke once", arguments: TestDatabase.kinds)
    func sessionLifetimes(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let session = try await Self.session(in: store, now: now)
            #expect(session.isActive(at: now.addingTimeInterval(3599)))
            #expect(!session.isActive(at: now.addingTimeInterval(3600)))
            try await store.revokeSession(id: session.id, reason: "logout", now: now)
            try await store.revokeSession(id: session.id, reason: "later", now: now.addingTimeInterval(5))
            let revoked = try #require(try await store.session(id: session.id))
            #expect(!revoked.isActive(at: now))
            #expect(revoked.revokedReason == "logout")
            #expect(revoked.amr == "hwk face")
        }
    }

    @Test("A refresh-token hash can be stored once only", arguments: TestDatabase.kinds)
    func refreshTokenHashIsUnique(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let session = try await Self.session(in: store)
            let token = try await store.insertRefreshToken(sessionID: session.id, tokenHash: Self.hash("t1"), expiresAt: Date().addingTimeInterval(60))
            await #expect(throws: StoreError.duplicate(nil)) {
                try await store.insertRefreshToken(sessionID: session.id, tokenHash: Self.hash("t1"), expiresAt: Date().addingTimeInterval(60))
            }
            #expect(try await store.refreshToken(hash: Self.hash("t1")) == token)
            #expect(try await store.refreshToken(hash: Self.hash("t2")) == nil)
        }
    }

    @Test("An authorization code is redeemed once, even by concurrent requests", arguments: TestDatabase.kinds)
    func codeRedeemedOnce(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let session = try await Self.session(in: store)
            let now = Date()
            let code = AuthorizationCode(
                codeHash: Self.hash("code"), sessionID: session.id, clientID: "no.portvakt.app", redirectURI: "no.portvakt.app:/cb",
                codeChallenge: "challenge", scope: "openid", nonce: "n", createdAt: now, expiresAt: now.addingTimeInterval(60)
            )
            try await store.insertAuthorizationCode(code)
            let outcomes = await withTaskGroup(of: Result<CodeRedemption, any Error>.self) { group in
                for _ in 0..<6 { group.addTask { await Result(awaiting: { try await store.redeemAuthorizationCode(hash: Self.hash("code"), now: now) }) } }
                return await group.reduce(into: [Result<CodeRedemption, any Error>]()) { $0.append($1) }
            }
            let answers = try outcomes.map { try $0.get() }
            #expect(answers.compactMap(\.code) == [code])
            // Each loser is told it replayed the winner's code: refused as such, never an error.
            #expect(answers.filter { $0.code == nil }.map(\.replayedSession) == Array(repeating: session.id, count: 5))
            // Review III item 4: a second redemption before the code would have expired is a replay of its session.
            #expect(try await store.redeemAuthorizationCode(hash: Self.hash("code"), now: now).replayedSession == session.id)
            #expect(try await store.redeemAuthorizationCode(hash: Self.hash("code"), now: now.addingTimeInterval(61)).replayedSession == nil, "after its expiry it is unknown")
            #expect(try await store.purgeExpiredAuthorizationCodes(now: now.addingTimeInterval(61)) == 1, "the tombstone goes when the code would have expired")
        }
    }

    @Test("An expired authorization code is refused (and gone)", arguments: TestDatabase.kinds)
    func expiredCode(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let session = try await Self.session(in: store)
            let now = Date()
            try await store.insertAuthorizationCode(AuthorizationCode(
                codeHash: Self.hash("old"), sessionID: session.id, clientID: "c", redirectURI: "r", codeChallenge: "x",
                scope: "openid", nonce: nil, createdAt: now, expiresAt: now.addingTimeInterval(60)
            ))
            #expect(try await store.redeemAuthorizationCode(hash: Self.hash("old"), now: now.addingTimeInterval(61)).code == nil)
            #expect(try await store.redeemAuthorizationCode(hash: Self.hash("old"), now: now).code == nil)
        }
    }
}
