import Foundation
import PortvaktServer
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// S14: email and password, the fallback that is always reachable.
@Suite("Email and password login")
struct PasswordLoginTests {
    static let password = "correct horse battery staple"

    /// Opens the password form for a new login and returns its hidden flow handle.
    static func form(_ login: AppLogin, at broker: LiveBroker) async throws -> String {
        let page = try await broker.send(login.authorizeURL(method: "password"))
        #expect(page.status == 200)
        #expect(page.body.contains(#"<html lang="nb">"#))
        #expect(page.body.contains(#"autocomplete="current-password""#))
        let match = try #require(page.body.firstMatch(of: /name="flow" value="([^"]+)"/))
        return String(match.1)
    }

    static func submit(_ flow: String, email: String, password: String, at broker: LiveBroker) async throws -> LiveBroker.Reply {
        try await broker.send("/oauth/password", method: .POST, form: [("flow", flow), ("email", email), ("password", password)])
    }

    @Test("S14.1 the admin command invites a member; the member logs in with email and password", arguments: TestDatabase.kinds)
    func invitedMemberLogsIn(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            _ = try await PortvaktApplication.setPassword(
                configuration: broker.configuration, logger: TestDatabase.logger, email: "per@sandbox.portvakt.test", password: Self.password
            )
            let login = AppLogin()
            let flow = try await Self.form(login, at: broker)
            let reply = try await Self.submit(flow, email: "Per@Sandbox.Portvakt.test", password: Self.password, at: broker)
            #expect(reply.status == 303)
            let app = AppCallback(location: reply.location)
            #expect(app.fields["state"] == login.state)
            let code = try #require(app.code)
            let tokens = try await login.redeem(code, at: broker)
            #expect(tokens.status == 200)
            let accessToken = try #require(tokens.string("access_token"))
            let access = LiveBroker.claims(accessToken)
            #expect(access["amr"] as? [String] == ["pwd"])
            #expect((access["org"] as? [[String: Any]])?.first?["slug"] as? String == "blindeforbundet")
            let again = try await Self.submit(flow, email: "per@sandbox.portvakt.test", password: Self.password, at: broker)
            #expect(again.status == 400, "a finished login's form cannot be submitted again")
        }
    }

    @Test("S14.2 a wrong password and an unknown email get the same answer; repeated failures are throttled")
    func sameAnswerAndThrottling() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            _ = try await PortvaktApplication.setPassword(
                configuration: broker.configuration, logger: TestDatabase.logger, email: "nora@sandbox.portvakt.test", password: Self.password
            )
            let flow = try await Self.form(AppLogin(), at: broker)
            let wrong = try await Self.submit(flow, email: "nora@sandbox.portvakt.test", password: "not the password", at: broker)
            let unknown = try await Self.submit(flow, email: "nobody@sandbox.portvakt.test", password: "not the password", at: broker)
            #expect(wrong.status == 401 && unknown.status == 401)
            #expect(wrong.body.contains("Feil e-postadresse eller passord"))
            let strip = { (body: String) in body.replacingOccurrences(of: "nora@", with: "").replacingOccurrences(of: "nobody@", with: "") }
            #expect(strip(wrong.body) == strip(unknown.body), "nothing tells the two apart")

            for _ in 0..<4 { _ = try await Self.submit(flow, email: "nora@sandbox.portvakt.test", password: "still wrong", at: broker) }
            let blocked = try await Self.submit(flow, email: "nora@sandbox.portvakt.test", password: Self.password, at: broker)
            #expect(blocked.status == 429, "after five failures even the right password waits")
            #expect(blocked.body.contains("For mange forsøk"))
            let blockedUnknown = try await Self.submit(flow, email: "ghost@sandbox.portvakt.test", password: "x", at: broker)
            #expect(blockedUnknown.status == 401, "other accounts from this address are not blocked yet")
        }
    }

    @Test("Review II item 4: twenty parallel wrong passwords are counted before bcrypt runs: five are judged, the others wait, and the right password after them waits too", arguments: TestDatabase.kinds)
    func parallelGuessesAreCountedFirst(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            _ = try await PortvaktApplication.setPassword(
                configuration: broker.configuration, logger: TestDatabase.logger, email: "nora@sandbox.portvakt.test", password: Self.password
            )
            let flow = try await Self.form(AppLogin(), at: broker)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<20 {
                    group.addTask { try await Self.submit(flow, email: "nora@sandbox.portvakt.test", password: "guess \(index)", at: broker).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 401 }.count == 5, "only the five free failures were judged: \(statuses.sorted())")
            #expect(statuses.filter { $0 == 429 }.count == 15)
            let right = try await Self.submit(flow, email: "nora@sandbox.portvakt.test", password: Self.password, at: broker)
            #expect(right.status == 429, "the right password sent last does not sign in")

            // A success gives its count back: after the wait, one right password signs in and
            // the account starts over.
            broker.clock.advance(by: 6)
            #expect(try await Self.submit(flow, email: "nora@sandbox.portvakt.test", password: Self.password, at: broker).status == 303)
        }
    }

    @Test("The method page offers BankID, Vipps and password in Norwegian and English")
    func methodPage() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = AppLogin()
            let nb = try await broker.send(login.authorizeURL(method: nil))
            #expect(nb.status == 200)
            for text in ["Logg inn med BankID", "Logg inn med Vipps", "Logg inn med e-post og passord", #"lang="en""#] {
                #expect(nb.body.contains(text))
            }
            let en = try await broker.send(login.authorizeURL(method: nil, extra: [("ui_locales", "en")]))
            #expect(en.body.contains(#"<html lang="en">"#))
            #expect(en.body.contains("Log in with BankID"))
            #expect(nb.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
        }
    }
}
