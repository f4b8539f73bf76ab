import Crypto
import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Issue 48 item 1: the refresh rotation is described once (the domain's `RefreshRotationRule`)
/// and run twice (SQLite's transaction, PostgreSQL's function). Each case builds its rows, asks
/// the rule about them as they are, then presents the token to the store: both databases answer
/// what the rule decided, and what the case expects.
@Suite("Refresh rotation: one rule, both databases")
struct RotationRuleTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let client = "no.portvakt.app"

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let expected: RefreshRotationRule.Step
        /// Sets the rows up; returns the request: the presented token, its successor, client, DPoP key and time.
        let arrange: @Sendable (PortvaktStore, Session) async throws -> (token: String, successor: String, client: String, jkt: String?, at: TimeInterval)
        var testDescription: String { name }
    }

    static let h = SessionTokenTests.hash

    static func token(_ name: String, in store: PortvaktStore, _ session: Session, expiresIn seconds: TimeInterval = 86400) async throws {
        _ = try await store.insertRefreshToken(sessionID: session.id, tokenHash: h(name), expiresAt: start.addingTimeInterval(seconds), now: start)
    }

    static func rotate(_ store: PortvaktStore, _ token: String, to successor: String, at seconds: TimeInterval) async throws {
        _ = try await store.rotateRefreshToken(
            hash: h(token), successorHash: h(successor), clientID: client, idleLifetime: 3600, now: start.addingTimeInterval(seconds)
        )
    }

    static let cases: [Case] = [
        Case(name: "a token no one issued is unknown", expected: .unknown) { _, _ in ("nobody", "x", client, nil, 10) },
        Case(name: "another client's token is unknown", expected: .unknown) { store, session in
            try await token("t0", in: store, session); return ("t0", "t1", "portvakt-cli", nil, 10)
        },
        Case(name: "a bound session refuses a request without its key", expected: .wrongKey) { store, session in
            try await token("t0", in: store, session); _ = try await store.bindSession(id: session.id, dpopJKT: "key-a")
            return ("t0", "t1", client, nil, 10)
        },
        Case(name: "a bound session refuses another key", expected: .wrongKey) { store, session in
            try await token("t0", in: store, session); _ = try await store.bindSession(id: session.id, dpopJKT: "key-a")
            return ("t0", "t1", client, "key-b", 10)
        },
        Case(name: "a bound session rotates with its key", expected: .rotate) { store, session in
            try await token("t0", in: store, session); _ = try await store.bindSession(id: session.id, dpopJKT: "key-a")
            return ("t0", "t1", client, "key-a", 10)
        },
        Case(name: "a revoked session has expired", expected: .expired) { store, session in
            try await token("t0", in: store, session); try await store.revokeSession(id: session.id, reason: "logout", now: start)
            return ("t0", "t1", client, nil, 10)
        },
        Case(name: "a session idle for its idle lifetime has expired", expected: .expired) { store, session in
            try await token("t0", in: store, session); return ("t0", "t1", client, nil, 3600)
        },
        Case(name: "a session past its absolute lifetime has expired, however recently used", expected: .expired) { store, session in
            // Idle expiry after the absolute one (rotation never sets it so): only the absolute lifetime can refuse.
            try await token("t0", in: store, session, expiresIn: 200_000)
            try await store.driver.withSession { db in
                try await db.update("sessions").set("absolute_expires_at", to: start.addingTimeInterval(1000).millisecondsSince1970)
                    .set("idle_expires_at", to: start.addingTimeInterval(100_000).millisecondsSince1970).where("id", .equal, session.id).run()
            }
            return ("t0", "t1", client, nil, 1000)
        },
        Case(name: "an expired token in a live session has expired", expected: .expired) { store, session in
            try await token("t0", in: store, session, expiresIn: 50); return ("t0", "t1", client, nil, 100)
        },
        Case(name: "a current token rotates", expected: .rotate) { store, session in
            try await token("t0", in: store, session); return ("t0", "t1", client, nil, 10)
        },
        Case(name: "a rotated token whose successor is unused repeats, however late", expected: .repeatSuccessor) { store, session in
            try await token("t0", in: store, session); try await rotate(store, "t0", to: "t1", at: 10)
            return ("t0", "t1", client, nil, 3000)
        },
        Case(name: "a rotated token presented with another successor is reuse", expected: .revokeForReuse) { store, session in
            try await token("t0", in: store, session); try await rotate(store, "t0", to: "t1", at: 10)
            return ("t0", "other", client, nil, 20)
        },
        Case(name: "a rotated token whose successor was used is reuse", expected: .revokeForReuse) { store, session in
            try await token("t0", in: store, session); try await rotate(store, "t0", to: "t1", at: 10); try await rotate(store, "t1", to: "t2", at: 20)
            return ("t0", "t1", client, nil, 30)
        },
        // Two faults at once: the rule's order decides, and both databases keep it.
        Case(name: "a wrong key is named before the session's end", expected: .wrongKey) { store, session in
            try await token("t0", in: store, session); _ = try await store.bindSession(id: session.id, dpopJKT: "key-a")
            try await store.revokeSession(id: session.id, reason: "logout", now: start)
            return ("t0", "t1", client, "key-b", 10)
        },
        Case(name: "another client's token on a bound session is unknown, not a wrong key", expected: .unknown) { store, session in
            try await token("t0", in: store, session); _ = try await store.bindSession(id: session.id, dpopJKT: "key-a")
            return ("t0", "t1", "portvakt-cli", "key-b", 10)
        },
        Case(name: "a used token in an ended session has expired, and is not reuse", expected: .expired) { store, session in
            try await token("t0", in: store, session); try await rotate(store, "t0", to: "t1", at: 10); try await rotate(store, "t1", to: "t2", at: 20)
            try await store.revokeSession(id: session.id, reason: "logout", now: start.addingTimeInterval(30))
            return ("t0", "t1", client, nil, 40)
        },
    ]

    static var arguments: [(DatabaseKind, Case)] { TestDatabase.kinds.flatMap { kind in cases.map { (kind, $0) } } }

    @Test("Each case: the store answers what the rule decides on its rows, on each database", arguments: arguments)
    func storeFollowsTheRule(kind: DatabaseKind, rule: Case) async throws {
        try await TestDatabase.withStore(kind) { store in
            let session = try await SessionTokenTests.session(in: store, now: Self.start)
            let request = try await rule.arrange(store, session)
            let now = Self.start.addingTimeInterval(request.at)
            let token = try await store.refreshToken(hash: Self.h(request.token))
            let owner: Session? = if let token { try await store.session(id: token.sessionId) } else { nil }
            let decided = RefreshRotationRule.decide(
                token: token, session: owner,
                successor: token?.rotatedAt == nil ? nil : try await store.refreshToken(hash: Self.h(request.successor)),
                clientID: request.client, dpopJKT: request.jkt, now: now
            )
            #expect(decided == rule.expected, "the rule")
            let before = try await store.session(id: session.id)
            let answer = try await store.rotateRefreshToken(
                hash: Self.h(request.token), successorHash: Self.h(request.successor), clientID: request.client, dpopJKT: request.jkt,
                idleLifetime: 3600, now: now
            )
            #expect(Self.step(of: answer) == rule.expected, "\(kind): \(answer)")
            let after = try await store.session(id: session.id)
            #expect((after?.revokedReason == "refresh_token_reuse") == (rule.expected == .revokeForReuse), "only reuse revokes the session")
            let presented = try await store.refreshToken(hash: Self.h(request.token))
            if [.unknown, .wrongKey, .expired].contains(rule.expected) {
                #expect(after == before, "\(kind): a refusal leaves the session as it was")
                #expect(presented == token, "\(kind): a refusal leaves the token as it was")
            } else {
                #expect(after?.idleExpiresAt == min(now.addingTimeInterval(3600).millisecondsSince1970, session.absoluteExpiresAt), "\(kind): the idle expiry moves")
                let successor = try await store.refreshToken(hash: Self.h(request.successor))
                switch rule.expected {
                case .rotate:
                    #expect(presented?.rotatedAt == now.millisecondsSince1970 && successor?.parentId == token?.id, "\(kind): rotated into the successor")
                    #expect(successor?.rotatedAt == nil && presented?.successorId == successor?.id)
                case .repeatSuccessor:
                    #expect(successor != nil && successor?.rotatedAt == nil && presented == token, "\(kind): the same unused successor, nothing new")
                default:
                    #expect(presented == token, "\(kind): reuse rotates nothing; it ends the session")
                }
            }
        }
    }

    @Test("A replayed DPoP proof changes nothing, before the rule is asked", arguments: TestDatabase.kinds)
    func replayedProof(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let session = try await SessionTokenTests.session(in: store, now: Self.start)
            try await Self.token("t0", in: store, session)
            let proof = DPoPProofRecord(jtiHash: Self.h("jti"), expiresAt: Self.start.addingTimeInterval(300))
            #expect(try await store.recordDPoPProof(proof))
            let answer = try await store.rotateRefreshToken(
                hash: Self.h("t0"), successorHash: Self.h("t1"), clientID: Self.client, dpopJKT: nil, proof: proof, idleLifetime: 3600,
                now: Self.start.addingTimeInterval(10)
            )
            #expect(answer == .replayedProof)
            #expect(try await store.refreshToken(hash: Self.h("t0"))?.rotatedAt == nil, "the token did not rotate")
        }
    }

    static func step(of rotation: RefreshRotation) -> RefreshRotationRule.Step? {
        switch rotation {
        case .rotated: .rotate
        case .repeated: .repeatSuccessor
        case .reused: .revokeForReuse
        case .expired: .expired
        case .wrongKey: .wrongKey
        case .unknown: .unknown
        case .replayedProof: nil
        }
    }
}
