import Foundation
import PortvaktSandbox
import PortvaktServer
import PortvaktTestSupport
import Testing

/// Logins through the broker at trace level leave no personnummer, code, token, state, nonce,
/// verifier or password in the logs or in the audit trail.
@Suite("No secrets from broker logins in logs")
struct BrokerLogLeakTests {
    @Test("Vipps, BankID and password logins, refreshes and a reuse log none of what they exchange")
    func brokerLogins() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            var secrets: [String] = []
            for (provider, user) in [("vipps", "kari"), ("bankid", "magnus")] {
                let login = AppLogin()
                let start = try await broker.send(login.authorizeURL(method: provider))
                let providerURL = try #require(start.location)
                let upstream = AppCallback(location: providerURL)
                let atProvider = try await broker.send(providerURL + "&sandbox_user=\(user)&sandbox_action=approve")
                let callbackURL = try #require(atProvider.location)
                let back = try await broker.send(callbackURL)
                let app = AppCallback(location: back.location)
                let code = try #require(app.code)
                let tokens = try await login.redeem(code, at: broker)
                let refresh = try #require(tokens.string("refresh_token"))
                let rotated = try await broker.refresh(refresh)
                _ = try await broker.refresh(rotated.string("refresh_token") ?? "missing")
                _ = try await broker.refresh(refresh)  // reuse: revokes and logs a warning
                secrets += [
                    login.state, login.nonce, login.verifier, code, refresh, try #require(tokens.string("access_token")),
                    try #require(tokens.string("id_token")), rotated.string("refresh_token") ?? "missing",
                    try #require(upstream.fields["state"]), try #require(upstream.fields["nonce"]),
                    try #require(AppCallback(location: callbackURL).code),
                ]
            }
            let password = "a password that must not be logged"
            _ = try await PortvaktApplication.setPassword(configuration: broker.configuration, logger: TestDatabase.logger, email: "per@sandbox.portvakt.test", password: password)
            let flow = try await PasswordLoginTests.form(AppLogin(), at: broker)
            _ = try await PasswordLoginTests.submit(flow, email: "per@sandbox.portvakt.test", password: password, at: broker)
            secrets += [password, flow]

            let audit = try await broker.withStore { store in
                try await store.driver.withSession { db in
                    try await db.select().column("details").column("subject_id").from("audit_events").all().map { row in
                        (try row.decode(column: "details", as: String.self)) + " " + ((try? row.decode(column: "subject_id", as: String.self)) ?? "")
                    }
                }
            }.joined(separator: "\n")
            let logs = broker.logs.text
            #expect(logs.contains("/oauth/callback/vipps"))
            #expect(logs.contains("Login succeeded"))
            #expect(audit.contains("wrong_credentials") == false && audit.contains("no.portvakt.app"), "the trail has the logins, by client")
            let numbers = ["kari", "magnus"].compactMap { TestUsers.user(id: $0)?.personnummer }
            for secret in secrets + numbers {
                #expect(!logs.contains(secret), "log leaks \(secret.prefix(6))…")
                #expect(!audit.contains(secret), "audit leaks \(secret.prefix(6))…")
            }
        }
    }
}
