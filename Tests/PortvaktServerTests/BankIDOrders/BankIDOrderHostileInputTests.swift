import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// What an attacker or a broken client can send to the order endpoints: each gets a 4xx with
/// an OAuth error, never a 500 and never an order.
@Suite("BankID order flow: hostile input")
struct BankIDOrderHostileInputTests {
    @Test("Order starts that break a rule are refused before BankID is called")
    func refusedStarts() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = AppLogin()
            let cases: [(String, [String: Any], Int, String)] = [
                ("unknown client", ["client_id": "evil-app"], 401, "invalid_client"),
                ("unregistered redirect", ["redirect_uri": "https://evil.example/callback"], 400, "invalid_request"),
                ("plain PKCE", ["code_challenge_method": "plain"], 400, "invalid_request"),
                ("malformed challenge", ["code_challenge": "short"], 400, "invalid_request"),
                ("plain http return URL", ["return_url": "http://127.0.0.1:9999/bankid/return"], 400, "invalid_request"),
                ("return URL not on the list", ["return_url": "no.portvakt.app:/somewhere-else"], 400, "invalid_request"),
                ("script return URL", ["return_url": "javascript:alert(1)"], 400, "invalid_request"),
                ("unknown scope", ["scope": "openid admin"], 400, "invalid_scope"),
                ("number for a string", ["client_id": 42], 400, "invalid_request"),
            ]
            for (name, extra, status, error) in cases {
                let reply = try await broker.startOrder(login, extra: extra)
                #expect(reply.status == status, "\(name): \(reply.body)")
                #expect(reply.string("error") == error, "\(name)")
                #expect(reply.string("sessionId") == nil, "\(name)")
            }
            let cli = try await broker.startOrder(AppLogin(clientID: "portvakt-cli", redirectURI: "http://127.0.0.1:4000/callback"),
                                                  extra: ["return_url": "http://127.0.0.1:4000/callback"])
            #expect(cli.status == 400, "a loopback client gets no plain-http return either")
        }
    }

    @Test("Bodies that are not the expected JSON: 415 for another type, 400 for broken JSON, 413 for a huge body")
    func bodies() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let form = try await broker.send("/bankid/orders", method: .POST, form: [("client_id", "no.portvakt.app")])
            #expect(form.status == 415)
            #expect(form.string("error") == "invalid_request")
            for path in ["/bankid/orders", "/bankid/orders/collect", "/bankid/orders/qr", "/bankid/orders/cancel"] {
                let broken = try await broker.send(path, method: .POST, raw: ("application/json", Data("{\"sessionId\": ".utf8)))
                #expect(broken.status == 400, "\(path)")
                let array = try await broker.send(path, method: .POST, raw: ("application/json", Data("[1,2,3]".utf8)))
                #expect(array.status == 400, "\(path)")
                let huge = try await broker.send(path, method: .POST, raw: ("application/json", Data(repeating: 0x20, count: 64 * 1024)))
                #expect(huge.status == 413, "\(path)")
            }
        }
    }

    @Test("Unknown or guessed session ids find nothing (404, bankid_order_not_found); a bad QR format is a 400")
    func unknownSessions() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            for session in [randomToken(), "", "' OR 1=1 --", String(repeating: "a", count: 4000)] {
                for reply in [try await broker.collect(session), try await broker.cancelOrder(session), try await broker.qrFrame(session)] {
                    #expect(reply.status == 404)
                    #expect(reply.string("message_id") == "bankid_order_not_found")
                }
            }
            let order = try await broker.startedOrder(AppLogin())
            let format = try await broker.qrFrame(order.session, format: "png")
            #expect(format.status == 400)
        }
    }

    @Test("Another client cannot redeem an order's code, even with the verifier")
    func otherClient() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = AppLogin()
            let order = try await broker.startedOrder(login)
            _ = try await broker.bankIDApp(autoStartToken: order.autoStartToken, action: "approve")
            let answer = try await broker.collect(order.session)
            let code = try #require(answer.string("code"))
            let reply = try await login.redeem(code, at: broker, clientID: "portvakt-cli")
            #expect(reply.status == 400)
            #expect(reply.string("error") == "invalid_grant")
        }
    }

    @Test("Review III item 6: order starts are counted per address in the database, app and other-device page alike; past the limit 429 and nothing reaches BankID", arguments: TestDatabase.kinds)
    func orderStartsThrottled(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: ["PORTVAKT_BANKID_ORDERS_PER_ADDRESS": "3"]) { broker in
            for _ in 0..<2 { _ = try await broker.startedOrder(AppLogin()) }
            let page = try await broker.send(OtherDevicePageTests.pageURL(AppLogin()))
            #expect(page.status == 200, "the third order, from the page")
            let refused = try await broker.startOrder(AppLogin())
            #expect(refused.status == 429)
            #expect(refused.string("error") == "slow_down" && refused.string("message_id") == "too_many_attempts")
            let refusedPage = try await broker.send(OtherDevicePageTests.pageURL(AppLogin()))
            #expect(refusedPage.status == 429 && refusedPage.body.contains("For mange forsøk"))
            // The wait grows from 5 seconds; after it, one more order may start.
            broker.clock.advance(by: 6)
            #expect(try await broker.startOrder(AppLogin()).status == 201)
        }
    }
}
