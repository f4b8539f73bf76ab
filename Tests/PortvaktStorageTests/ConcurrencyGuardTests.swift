import Crypto
import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import SQLKit
import Testing

/// Races between a request and a revocation, played deterministically: a revocation holds its
/// transaction open (uncommitted) while the other write starts, then commits. On PostgreSQL
/// (READ COMMITTED) the write must wait for it, which the test sees (`pg_stat_activity`: a
/// backend waiting on a lock) before it commits, and then see it. On SQLite one writer holds the
/// database at a time, so the racer's write cannot begin before the revocation commits: that
/// run shows only that a write after a committed revocation is refused.
@Suite("Revocations win their races")
struct ConcurrencyGuardTests {
    /// Runs `revoke` in a transaction that stays open until `racer` waits on its lock
    /// (PostgreSQL), then commits; returns what `racer` returned.
    static func race<R: Sendable>(
        _ store: PortvaktStore, revoke: @escaping @Sendable (any SQLDatabase) async throws -> Void,
        racer: @escaping @Sendable () async throws -> R
    ) async throws -> R {
        let (held, holding) = AsyncStream<Void>.makeStream()
        let (release, releasing) = AsyncStream<Void>.makeStream()
        async let revocation: Void = store.driver.withTransaction { db in
            try await revoke(db)
            holding.yield()
            for await _ in release { break }
        }
        for await _ in held { break }
        async let raced = racer()
        if store.driver.kind == .postgres { try await waitForLockWaiter(store) }
        releasing.yield()
        try await revocation
        return try await raced
    }

    /// Until a backend of this database waits for a lock: the racer, blocked by the open
    /// revocation. Fails the test after 10 s (the racer did not wait: it did not take the lock).
    private static func waitForLockWaiter(_ store: PortvaktStore) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        repeat {
            let waiting = try await store.driver.withSession { db in
                try await db.raw("SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")
                    .first()?.decode(column: "waiting", as: Int.self) ?? 0
            }
            if waiting > 0 { return }
            try await Task.sleep(for: .milliseconds(5))
        } while ContinuousClock.now < deadline
        Issue.record("the racer never waited on the revocation's lock")
    }

    @Test("A refresh racing a logout never yields tokens for the revoked session", arguments: TestDatabase.kinds)
    func refreshRacingLogout(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let now = Date()
            let session = try await SessionTokenTests.session(in: store, now: now)
            let h = SessionTokenTests.hash
            _ = try await store.insertRefreshToken(sessionID: session.id, tokenHash: h("t0"), expiresAt: now.addingTimeInterval(3600), now: now)
            let rotation = try await Self.race(store, revoke: { db in
                try await db.update("sessions").set("revoked_at", to: now.millisecondsSince1970).set("revoked_reason", to: "logout")
                    .where("id", .equal, session.id).run()
            }, racer: {
                try await store.rotateRefreshToken(hash: h("t0"), successorHash: h("t1"), clientID: "no.portvakt.app", idleLifetime: 3600, now: now)
            })
            guard case .expired = rotation else { Issue.record("the racing refresh got \(rotation)"); return }
            #expect(try await store.refreshToken(hash: h("t1")) == nil, "no successor was stored")
        }
    }

    @Test("An unlock racing the device's revocation leaves no live session", arguments: TestDatabase.kinds)
    func unlockRacingRevocation(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let now = Date()
            let user = try await store.createUser(displayName: "Ada")
            let key = DevicePublicKey(P256.Signing.PrivateKey().publicKey)
            let device = try await store.registerDevice(
                userID: user.id, name: "phone", platform: "ios", biometricKind: "face", publicKeyJWK: key.jwkJSON, keyThumbprint: key.thumbprint
            )
            let challenge = DeviceChallenge(
                challengeHash: SessionTokenTests.hash("c1"), deviceID: device.id, purpose: "unlock", action: nil,
                createdAt: now, expiresAt: now.addingTimeInterval(120)
            )
            try await store.insertDeviceChallenge(challenge)
            let unlock = try await Self.race(store, revoke: { db in
                try await db.update("devices").set("revoked_at", to: now.millisecondsSince1970).where("id", .equal, device.id).run()
                try await db.update("sessions").set("revoked_at", to: now.millisecondsSince1970).set("revoked_reason", to: "device_revoked")
                    .where("device_id", .equal, device.id).where("revoked_at", .is, SQLLiteral.null).run()
            }, racer: {
                try await store.unlockDevice(DeviceUnlockGrant(
                    challengeHash: challenge.challengeHash, claimedAction: nil,
                    session: Session.starting(
                        userID: user.id, clientID: "no.portvakt.app", deviceID: device.id, amr: ["hwk", "face"],
                        acr: "urn:portvakt:acr:device-biometric", authTime: now, idleLifetime: 3600, absoluteLifetime: 86400, now: now
                    ),
                    refreshTokenHash: SessionTokenTests.hash("u1"), throttleKey: "device",
                    audit: AuditEvent(occurredAt: now, action: .deviceUnlock, outcome: "success")
                ))
            })
            #expect(unlock == .deviceRemoved, "the unlock is refused")
            let alive = try await store.driver.withSession { db in
                try await db.select().column("id").from("sessions").where("device_id", .equal, device.id).where("revoked_at", .is, SQLLiteral.null).all().count
            }
            #expect(alive == 0)
        }
    }

    @Test("Concurrent registrations never exceed the device limit", arguments: TestDatabase.kinds)
    func deviceLimitHolds(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let user = try await store.createUser(displayName: "Ada")
            let results = await withTaskGroup(of: Result<Device, any Error>.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        let key = DevicePublicKey(P256.Signing.PrivateKey().publicKey)
                        return await Result(awaiting: {
                            try await store.registerDevice(
                                userID: user.id, name: "phone \(index)", platform: "ios", biometricKind: "face",
                                publicKeyJWK: key.jwkJSON, keyThumbprint: key.thumbprint, limit: 5
                            )
                        })
                    }
                }
                return await group.reduce(into: [Result<Device, any Error>]()) { $0.append($1) }
            }
            #expect(results.filter { (try? $0.get()) != nil }.count == 5)
            let refused = results.compactMap { result -> (any Error)? in if case .failure(let error) = result { error } else { nil } }
            #expect(refused.count == 7 && refused.allSatisfy { ($0 as? StoreError) == .limitReached("devices") }, "each one over the limit is told so: \(refused)")
            #expect(try await store.activeDevices(userID: user.id).count == 5)
        }
    }

    @Test("A BankID order is completed in the login's own transaction: an ended order stores no session or code", arguments: TestDatabase.kinds)
    func bankIDOrderCompletionIsAtomic(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let now = Date()
            let user = try await store.createUser(displayName: "Ada")
            let order = try await store.insertBankIDOrder(
                sessionHash: SessionTokenTests.hash("order"), clientID: "no.portvakt.app", startedAt: now, expiresAt: now.addingTimeInterval(180)
            ) { _ in SealedValue(keyID: "k", combined: Data([1])) }
            func login(_ code: String) async throws {
                let session = Session.starting(
                    userID: user.id, clientID: "no.portvakt.app", amr: ["BID"], acr: "urn:bankid:bid;LOA=4", authTime: now,
                    idleLifetime: 3600, absoluteLifetime: 86400, now: now
                )
                try await store.recordLogin(
                    session: session,
                    code: AuthorizationCode(
                        codeHash: SessionTokenTests.hash(code), sessionID: session.id, clientID: "no.portvakt.app", redirectURI: "no.portvakt.app:/oauth/callback",
                        codeChallenge: "c", scope: "openid", nonce: nil, createdAt: now, expiresAt: now.addingTimeInterval(60)
                    ),
                    eidLogin: true, memberSync: MemberSyncWrites(), audit: AuditEvent(occurredAt: now, action: .loginSucceeded, outcome: "success"),
                    bankIDOrderID: order.id, now: now
                )
            }
            try await login("first")
            await #expect(throws: StoreError.notFound("bankid_orders")) { try await login("second") }
            #expect(try await store.redeemAuthorizationCode(hash: SessionTokenTests.hash("second"), now: now).code == nil, "the loser's code was never stored")
            #expect(try await store.bankIDOrder(sessionHash: SessionTokenTests.hash("order"))?.status == .complete)
        }
    }
}
