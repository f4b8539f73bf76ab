import Foundation
import PortvaktServer
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// When the database goes away mid-session the app is told "try again" (503
/// `temporarily_unavailable`), never "logged out" (401 `invalid_token`, `invalid_grant`): the
/// SDK would otherwise throw the user's session away.
@Suite("Database outage")
struct DatabaseOutageTests {
    @Test("With PostgreSQL away: the API, userinfo and refresh answer 503 try-again within 2 s with Retry-After, SCIM in its own shape; afterwards the same tokens work")
    func outageIsTryAgain() async throws {
        guard TestDatabase.kinds.contains(.postgres) else { return }
        try await LiveBroker.run(.postgres) { broker in
            let tokens = try await broker.tokens(provider: "bankid", user: "ingrid")
            let access = try #require(tokens["access_token"] as? String)
            let refresh = try #require(tokens["refresh_token"] as? String)
            guard case .postgres(let url) = broker.configuration.database else { Issue.record("not on PostgreSQL"); return }
            let scim = try await broker.scimToken(organisation: "nhf")

            try await TestDatabase.setAvailable(false, database: url.database)
            do {
                // Asked at once: each waits out the connection pool's lease deadline (1.5 s), and they wait together.
                async let me = Self.named("GET /v1/me") { try await broker.api(.GET, "/v1/me", token: access) }
                async let userinfo = Self.named("GET /oauth/userinfo") { try await broker.api(.GET, "/oauth/userinfo", token: access) }
                async let rotation = Self.named("refresh") { try await broker.refresh(refresh) }
                async let page = Self.named("authorize page") {
                    try await broker.send(AppLogin().authorizeURL(method: "vipps"), headers: [("Accept", "text/html")])
                }
                // A member system is told the same in SCIM's shape (RFC 7644 §3.12), never OAuth JSON.
                async let users = Self.named("SCIM GET /Users") { try await broker.scim(.GET, "/Users", token: scim.token) }
                // Every answer is awaited before any is judged, so a failure names each request that got none.
                let replies = await [me, userinfo, rotation, page, users]
                let unanswered = replies.compactMap { reply -> Unanswered? in if case .failure(let error) = reply { error } else { nil } }
                guard unanswered.isEmpty else { throw Unanswered.Several(requests: unanswered) }
                for reply in replies {
                    let answered = try reply.get()
                    #expect(answered.waited < .seconds(2), "\(answered.request) took \(answered.waited)")
                    #expect(answered.reply.headers["retry-after"] == "2", "\(answered.request): \(answered.reply.headers)")
                }
                for (path, reply) in try [("/v1/me", replies[0].get().reply), ("/oauth/userinfo", replies[1].get().reply)] {
                    #expect(reply.status == 503, "\(path): \(reply.status) \(reply.body)")
                    #expect(reply.string("error") == "temporarily_unavailable")
                    #expect(reply.string("message_id") == "temporarily_unavailable")
                }
                let refused = try replies[2].get().reply
                #expect(refused.status == 503, "\(refused.body)")
                #expect(refused.string("error") == "temporarily_unavailable")
                let shown = try replies[3].get().reply
                #expect(shown.status == 503 && shown.body.contains("<html"), "browsers get a page: \(shown.status) \(shown.body.prefix(200))")
                let listed = try replies[4].get().reply
                #expect(listed.status == 503, "\(listed.body.prefix(200))")
                #expect(listed.json["schemas"] as? [String] == [LiveBroker.scimError] && listed.json["status"] as? String == "503" && listed.json["error"] == nil)
            } catch {
                try await TestDatabase.setAvailable(true, database: url.database)
                throw error
            }
            try await TestDatabase.setAvailable(true, database: url.database)

            #expect(try await broker.eventually { try await broker.api(.GET, "/v1/me", token: access).status == 200 })
            let after = try await broker.refresh(refresh)
            #expect(after.status == 200, "the session survived the outage: \(after.body)")
        }
    }

    /// A request that got no answer, named, with how long it waited: which one did is the finding.
    struct Unanswered: Error, CustomStringConvertible {
        let request: String
        let waited: Duration
        let error: any Error
        var description: String { "\(request): no answer after \(waited): \(error)" }

        struct Several: Error, CustomStringConvertible {
            let requests: [Unanswered]
            var description: String { requests.map(\.description).joined(separator: "; ") }
        }
    }

    /// A reply with the request it answers and how long it took.
    struct Answered {
        let request: String
        let reply: LiveBroker.Reply
        let waited: Duration
    }

    static func named(_ request: String, _ send: () async throws -> LiveBroker.Reply) async -> Result<Answered, Unanswered> {
        let started = ContinuousClock.now
        do {
            let reply = try await send()
            return .success(Answered(request: request, reply: reply, waited: ContinuousClock.now - started))
        } catch {
            return .failure(Unanswered(request: request, waited: ContinuousClock.now - started, error: error))
        }
    }
}
