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
    @Test("With PostgreSQL away: the API, userinfo and refresh answer 503 try-again; afterwards the same tokens work")
    func outageIsTryAgain() async throws {
        guard TestDatabase.kinds.contains(.postgres) else { return }
        try await LiveBroker.run(.postgres) { broker in
            let tokens = try await broker.tokens(provider: "bankid", user: "ingrid")
            let access = try #require(tokens["access_token"] as? String)
            let refresh = try #require(tokens["refresh_token"] as? String)
            guard case .postgres(let url) = broker.configuration.database else { Issue.record("not on PostgreSQL"); return }

            try await TestDatabase.setAvailable(false, database: url.database)
            do {
                for path in ["/v1/me", "/oauth/userinfo"] {
                    let reply = try await broker.api(.GET, path, token: access)
                    #expect(reply.status == 503, "\(path): \(reply.status) \(reply.body)")
                    #expect(reply.string("error") == "temporarily_unavailable")
                    #expect(reply.string("message_id") == "temporarily_unavailable")
                }
                let rotation = try await broker.refresh(refresh)
                #expect(rotation.status == 503, "\(rotation.body)")
                #expect(rotation.string("error") == "temporarily_unavailable")
                let page = try await broker.send(AppLogin().authorizeURL(method: "vipps"), headers: [("Accept", "text/html")])
                #expect(page.status == 503 && page.body.contains("<html"), "browsers get a page: \(page.status) \(page.body.prefix(200))")
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
}
