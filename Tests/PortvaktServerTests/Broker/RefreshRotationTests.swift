import Foundation
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Refresh-token rotation, repeats of a lost answer, reuse detection, logout and revocation, over HTTP.
@Suite("Sessions and refresh rotation")
struct RefreshRotationTests {
    @Test("S8.2 each refresh rotates the token; the old one gets the same successor while that is unused", arguments: TestDatabase.kinds)
    func rotation(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let firstReply = try await broker.tokens(provider: "bankid", user: "ingrid")
            let first = try #require(firstReply["refresh_token"] as? String)
            let rotated = try await broker.refresh(first)
            #expect(rotated.status == 200)
            let second = try #require(rotated.string("refresh_token"))
            #expect(second != first)
            #expect(rotated.string("access_token") != nil)

            let repeated = try await broker.refresh(first)
            #expect(repeated.status == 200, "the successor is unused")
            #expect(repeated.string("refresh_token") == second)

            let thirdReply = try await broker.refresh(second)

            let third = try #require(thirdReply.string("refresh_token"))
            #expect(third != second)
        }
    }

    @Test("Two concurrent refreshes of one token both succeed with the same successor", arguments: TestDatabase.kinds)
    func concurrentRefreshes(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let tokenReply = try await broker.tokens(provider: "vipps", user: "kari")
            let token = try #require(tokenReply["refresh_token"] as? String)
            async let a = broker.refresh(token)
            async let b = broker.refresh(token)
            let (first, second) = try await (a, b)
            #expect(first.status == 200 && second.status == 200, "\(first.body) \(second.body)")
            #expect(first.string("refresh_token") == second.string("refresh_token"))
            let shared = try #require(first.string("refresh_token"))
            let next = try await broker.refresh(shared)
            #expect(next.status == 200, "the shared successor is a working token")
        }
    }

    @Test("Issue 24: 200 concurrent uses of one refresh token give one successor for all; once it is used, a late use of the old token ends the session", arguments: TestDatabase.kinds)
    func twoHundredConcurrentUses(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let tokens = try await broker.tokens(provider: "vipps", user: "kari")
            let token = try #require(tokens["refresh_token"] as? String)
            let replies = try await withThrowingTaskGroup(of: LiveBroker.Reply.self) { group in
                for _ in 0..<200 { group.addTask { try await broker.refresh(token) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == 200 }, "statuses: \(Set(replies.map(\.status)))")
            let successors = Set(replies.compactMap { $0.string("refresh_token") })
            #expect(successors.count == 1, "one successor chain, not \(successors.count)")
            let successor = try #require(successors.first)
            let next = try await broker.refresh(successor)
            #expect(next.status == 200)
            let late = try await broker.refresh(token)
            #expect(late.status == 400 && late.string("error") == "invalid_grant", "\(late.body)")
            #expect(try await broker.refresh(try #require(next.string("refresh_token"))).status == 400, "the reuse ended the session")
        }
    }

    @Test("S8.2 a lost refresh answer does not log out: a retry five minutes later gets the same successor", arguments: TestDatabase.kinds)
    func lateRetryKeepsTheSession(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let tokens = try await broker.tokens(provider: "vipps", user: "kari")
            let first = try #require(tokens["refresh_token"] as? String)
            let lost = try await broker.refresh(first)
            let successor = try #require(lost.string("refresh_token"))
            broker.clock.advance(by: 300)

            let retry = try await broker.refresh(first)
            #expect(retry.status == 200, "\(retry.body)")
            #expect(retry.string("refresh_token") == successor)
            let next = try await broker.refresh(successor)
            #expect(next.status == 200, "the successor works after the late retry")
        }
    }

    @Test("A stolen predecessor used after its successor was used revokes the whole session, audited", arguments: TestDatabase.kinds)
    func reuseAfterTheChainMovedOn(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let tokens = try await broker.tokens(provider: "vipps", user: "kari")
            let first = try #require(tokens["refresh_token"] as? String)
            let accessToken = try #require(tokens["access_token"] as? String)
            let sid = try #require(LiveBroker.claims(accessToken)["sid"] as? String)
            let secondReply = try await broker.refresh(first)
            let second = try #require(secondReply.string("refresh_token"))
            let thirdReply = try await broker.refresh(second)
            let third = try #require(thirdReply.string("refresh_token"))

            let reuse = try await broker.refresh(first)
            #expect(reuse.status == 400)
            #expect(reuse.string("error") == "invalid_grant")
            #expect(reuse.string("message_id") == "session_expired")
            let legitimate = try await broker.refresh(third)
            #expect(legitimate.status == 400, "the legitimate holder's token dies with the session")
            #expect(legitimate.string("message_id") == "session_expired")

            let (session, events) = try await broker.withStore { store in
                (try await store.session(id: sid), try await store.auditEvents(subjectType: "session", subjectID: sid))
            }
            #expect(session?.revokedReason == "refresh_token_reuse")
            #expect(events.contains { $0.action == "session.refresh_token_reused" && $0.outcome == "revoked" })
        }
    }

    @Test("S8.3 a session past its absolute lifetime answers invalid_grant + session_expired", arguments: TestDatabase.kinds)
    func expiredSession(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: ["PORTVAKT_SESSION_ABSOLUTE_SECONDS": "2"]) { broker in
            let tokenReply = try await broker.tokens(provider: "vipps", user: "kari")
            let token = try #require(tokenReply["refresh_token"] as? String)
            // The server's clock past the 2 s, not a wait for them.
            broker.clock.advance(by: 3)
            let reply = try await broker.refresh(token)
            #expect(reply.status == 400)
            #expect(reply.string("error") == "invalid_grant")
            #expect(reply.string("message_id") == "session_expired")
            #expect(reply.string("error_description")?.isEmpty == false)
        }
    }

    @Test("Revoke (RFC 7009) and end-session log out: refresh and userinfo stop working", arguments: TestDatabase.kinds)
    func logoutAndRevoke(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let revoked = try await broker.tokens(provider: "vipps", user: "kari")
            let refresh = try #require(revoked["refresh_token"] as? String)
            let access = try #require(revoked["access_token"] as? String)
            let answer = try await broker.send("/oauth/revoke", method: .POST, form: [("client_id", "no.portvakt.app"), ("token", refresh)])
            #expect(answer.status == 200)
            let refreshAfterRevoke = try await broker.refresh(refresh)
            #expect(refreshAfterRevoke.string("message_id") == "session_expired")
            let userinfoAfterRevoke = try await broker.send("/oauth/userinfo", headers: [("Authorization", "Bearer \(access)")])
            #expect(userinfoAfterRevoke.status == 401)
            let unknown = try await broker.send("/oauth/revoke", method: .POST, form: [("client_id", "no.portvakt.app"), ("token", "not-a-token")])
            #expect(unknown.status == 200, "RFC 7009 §2.2: unknown tokens are not an error")

            let other = try await broker.tokens(provider: "bankid", user: "ingrid")
            let idToken = try #require(other["id_token"] as? String)
            let logout = try await broker.send(
                "/oauth/end-session?id_token_hint=\(idToken)&post_logout_redirect_uri=no.portvakt.app:/oauth/logout&state=bye12345"
            )
            #expect(logout.status == 303)
            #expect(logout.location == "no.portvakt.app:/oauth/logout?state=bye12345")
            let otherRefresh = try #require(other["refresh_token"] as? String)
            let afterLogout = try await broker.refresh(otherRefresh)
            #expect(afterLogout.string("message_id") == "session_expired")
            let sid = try #require(LiveBroker.claims(idToken)["sid"] as? String)
            let events = try await broker.withStore { try await $0.auditEvents(subjectType: "session", subjectID: sid) }
            #expect(events.map(\.action).contains("session.ended"))
            #expect(events.map(\.action).contains("login.succeeded"))
        }
    }
}
