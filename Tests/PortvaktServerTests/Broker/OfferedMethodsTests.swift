import Foundation
import PortvaktCore
import PortvaktKit
import PortvaktProtocol
import Testing

/// Issue 60, item 4: a login method is shown only when it is configured, on the method page,
/// the start page, in discovery, and through discovery in the app; and item 3: each provider's
/// last known state in `/health/ready`.
@Suite("Offered login methods")
struct OfferedMethodsTests {
    /// BankID configured at an address where nothing answers; no Vipps, no order API, no sandbox.
    static let bankIDOnly = [
        "PORTVAKT_SANDBOX": "off", "PORTVAKT_SEED": "off",
        "PORTVAKT_BANKID_DISCOVERY_URL": "http://127.0.0.1:9/.well-known/openid-configuration",
        "PORTVAKT_BANKID_CLIENT_ID": "portvakt", "PORTVAKT_BANKID_CLIENT_SECRET": "a-secret-nobody-checks",
    ]

    @Test("Without Vipps or the order API, no page, no discovery field and no app screen offers them; BankID's state is in /health/ready")
    func onlyWhatIsConfigured() async throws {
        try await LiveBroker.run(.sqlite, settings: Self.bankIDOnly, over: .socket) { broker in
            let page = try await broker.send(AppLogin().authorizeURL(method: nil), headers: [("Accept", "text/html")])
            #expect(page.status == 200)
            #expect(page.body.contains("idp_hint=bankid"), "BankID is configured")
            #expect(page.body.contains("idp_hint=password"), "email and password is always there")
            #expect(!page.body.contains("idp_hint=vipps"), "no Vipps without its settings")
            #expect(!page.body.contains("other-device"), "no BankID on another device without the order API")

            // A hint for what is not configured shows what is, never "temporarily unavailable".
            let hinted = try await broker.send(AppLogin().authorizeURL(method: "vipps"), headers: [("Accept", "text/html")])
            #expect(hinted.status == 200 && hinted.location == nil && hinted.body.contains("idp_hint=bankid") && !hinted.body.contains("idp_hint=vipps"))

            let start = try await broker.send("/", headers: [("Accept", "text/html")])
            #expect(start.body.contains("method=bankid") && !start.body.contains("method=vipps"))

            let discovery = try await broker.send("/.well-known/openid-configuration")
            let methods = try #require(discovery.json["portvakt_login_methods"] as? [String])
            #expect(methods.contains("bankid") && methods.contains("password"))
            #expect(!methods.contains("vipps") && !methods.contains("bankid_order"))

            // The app reads them, and its method selection shows only those.
            let client = PortvaktClient(configuration: PortvaktConfiguration(baseURL: try #require(URL(string: broker.baseURL))))
            let offered = try #require(try await client.loginMethods())
            #expect(offered == [.bankID, .password])
            var context = AuthContext(biometry: .notAvailable, hasSession: false, deviceKeyEnrolled: false, online: true)
            context.offeredMethods = offered
            var machine = AuthMachine(context: context)
            _ = machine.handle(.launched(context))
            let shown = ScreenModel(machine, language: .en).actions.map(\.id)
            #expect(shown.contains("bankid") && shown.contains("password"), "\(shown)")
            #expect(!shown.contains("vipps") && !shown.contains("bankid-order"), "\(shown)")

            // Nothing answers where BankID was configured: the start-up check said so, and readiness shows it.
            let ready = try await broker.send("/health/ready")
            #expect(ready.status == 200, "the database answers: ready, whatever BankID does")
            #expect(ready.json["database"] as? String == "reachable")
            let bankid = try #require((ready.json["providers"] as? [String: Any])?["bankid"] as? [String: Any])
            #expect(bankid["state"] as? String == "unreachable")
            #expect(bankid["checked_at"] is Int && bankid["detail"] == nil, "why is logged, never published: \(bankid)")
            #expect(broker.logs.text.contains("identity provider does not answer") && broker.logs.text.contains("no answer from bankid"))
            #expect(!ready.body.contains("a-secret-nobody-checks"))
        }
    }

    @Test("With the sandbox every method is offered")
    func sandboxOffersAll() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let discovery = try await broker.send("/.well-known/openid-configuration")
            let methods = try #require(discovery.json["portvakt_login_methods"] as? [String])
            #expect(Set(methods).isSuperset(of: ["bankid", "vipps", "bankid_order", "password"]), "\(methods)")
        }
    }
}
