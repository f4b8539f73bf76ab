import Foundation
import Hummingbird
import HummingbirdTesting
import PortvaktCore
import Testing
@testable import PortvaktSandbox

@Suite("BankID order API and the simulated BankID app")
struct OrderTests {
    private static let relyingParty: HTTPFields = [
        .authorization: "Basic " + Data("broker:\(SandboxHarness.clientSecret)".utf8).base64EncodedString(), .contentType: "application/json",
    ]

    private func start(_ client: some TestClientProtocol) async throws -> [String: String] {
        let (status, body) = try await client.json("/sandbox/bankid/rp/v6.0/auth", method: .post, headers: Self.relyingParty, body: #"{"endUserIp":"127.0.0.1"}"#)
        #expect(status == .ok)
        return body.compactMapValues { $0 as? String }
    }

    private func collect(_ client: some TestClientProtocol, _ orderRef: String) async throws -> [String: Any] {
        try await client.json("/sandbox/bankid/rp/v6.0/collect", method: .post, headers: Self.relyingParty, body: #"{"orderRef":"\#(orderRef)"}"#).1
    }

    private func app(_ client: some TestClientProtocol, _ fields: String) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await client.json("/sandbox/bankid/app", method: .post,
                              headers: [.contentType: "application/x-www-form-urlencoded", .accept: "application/json"], body: fields)
    }

    @Test("auth → pending outstandingTransaction → app opens (userSign) → approve → complete with the user")
    func sameDevice() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let order = try await start(client)
            for key in ["orderRef", "autoStartToken", "qrStartToken", "qrStartSecret"] { #expect(order[key]?.isEmpty == false, "\(key)") }
            let orderRef = try #require(order["orderRef"])
            let value1 = try await collect(client, orderRef)["hintCode"]
            #expect(value1 as? String == "outstandingTransaction")

            let token = try #require(order["autoStartToken"])
            let page = try await client.execute(uri: "/sandbox/bankid/app?autostarttoken=\(token)&redirect=no.portvakt.app%3A%2Fbankid", method: .get)
            #expect(page.status == .ok)
            #expect(String(buffer: page.body).contains("SANDKASSE"))
            let pending = try await collect(client, orderRef)
            #expect(pending["status"] as? String == "pending" && pending["hintCode"] as? String == "userSign")

            let (status, result) = try await app(client, "autostarttoken=\(token)&user=ola&action=approve")
            #expect(status == .ok && result["status"] as? String == "complete")
            let complete = try await collect(client, orderRef)
            #expect(complete["status"] as? String == "complete")
            let user = (complete["completionData"] as? [String: Any])?["user"] as? [String: Any]
            #expect(user?["personalNumber"] as? String == TestUsers.user(id: "ola")?.personnummer)
            #expect(user?["name"] as? String == "Ola Nordmann")
        }
    }

    @Test("Another device: the current QR frame opens the order; a stale or forged frame does not")
    func qrCode() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let order = try await start(client)
            let token = try #require(order["qrStartToken"]), secret = try #require(order["qrStartSecret"])
            harness.clock.advance(seconds: 5)
            let forged = "bankid.\(token).5." + String(repeating: "0", count: 64)
            let value2 = try await app(client, "qr=\(forged)&user=kari&action=approve").0
            #expect(value2 == .notFound)
            harness.clock.advance(seconds: 40)
            let stale = BankIDQRCode.frame(qrStartToken: token, qrStartSecret: secret, seconds: 5)
            let value3 = try await app(client, "qr=\(stale)&user=kari&action=approve").0
            #expect(value3 == .notFound)
            let current = BankIDQRCode.frame(qrStartToken: token, qrStartSecret: secret, seconds: 45)
            let (status, result) = try await app(client, "qr=\(current)&user=kari&action=approve")
            #expect(status == .ok && result["status"] as? String == "complete")
        }
    }

    @Test("The user cancels in the app: failed userCancel")
    func userCancel() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let order = try await start(client)
            _ = try await app(client, "autostarttoken=\(order["autoStartToken"]!)&action=cancel")
            let result = try await collect(client, order["orderRef"]!)
            #expect(result["status"] as? String == "failed" && result["hintCode"] as? String == "userCancel")
        }
    }

    @Test("The relying party cancels: failed cancelled; cancelling again is harmless")
    func relyingPartyCancel() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let order = try await start(client)
            for _ in 0..<2 {
                let (status, _) = try await client.json("/sandbox/bankid/rp/v6.0/cancel", method: .post, headers: Self.relyingParty, body: #"{"orderRef":"\#(order["orderRef"]!)"}"#)
                #expect(status == .ok)
            }
            let value4 = try await collect(client, order["orderRef"]!)["hintCode"]
            #expect(value4 as? String == "cancelled")
            let (status, _) = try await app(client, "autostarttoken=\(order["autoStartToken"]!)&user=kari&action=approve")
            #expect(status == .ok)
            let value5 = try await collect(client, order["orderRef"]!)["status"]
            #expect(value5 as? String == "failed")
        }
    }

    @Test("An order not finished in 3 minutes fails with expiredTransaction and cannot be approved")
    func expiry() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let order = try await start(client)
            harness.clock.advance(seconds: 179)
            let value6 = try await collect(client, order["orderRef"]!)["status"]
            #expect(value6 as? String == "pending")
            harness.clock.advance(seconds: 2)
            let result = try await collect(client, order["orderRef"]!)
            #expect(result["status"] as? String == "failed" && result["hintCode"] as? String == "expiredTransaction")
            _ = try await app(client, "autostarttoken=\(order["autoStartToken"]!)&user=kari&action=approve")
            let value7 = try await collect(client, order["orderRef"]!)["hintCode"]
            #expect(value7 as? String == "expiredTransaction")
            let value8 = try await client.execute(uri: "/sandbox/bankid/app?autostarttoken=\(order["autoStartToken"]!)", method: .get).status
            #expect(value8 == .notFound)
        }
    }

    @Test("Order faults: start_failed, certificate_error, unknown_hint, user_cancels", arguments: [
        (SandboxFault.startFailed, "failed", "startFailed"), (.certificateError, "failed", "certificateErr"),
        (.unknownHint, "pending", "sandboxHintNobodyKnows"), (.userCancels, "failed", "userCancel"),
    ])
    func faults(fault: SandboxFault, status: String, hint: String) async throws {
        let harness = try SandboxHarness(faults: [.bankid: FaultSettings(faults: [fault])])
        try await harness.run { client in
            let order = try await start(client)
            let token = order["autoStartToken"]!
            _ = try await client.execute(uri: "/sandbox/bankid/app?autostarttoken=\(token)", method: .get)
            if fault != .startFailed && fault != .unknownHint {
                _ = try await app(client, "autostarttoken=\(token)&user=kari&action=approve")
            }
            let result = try await collect(client, order["orderRef"]!)
            #expect(result["status"] as? String == status && result["hintCode"] as? String == hint)
        }
    }

    @Test("The order API refuses strangers, other clients' orders and malformed requests with 4xx")
    func hostile() async throws {
        let harness = try SandboxHarness()
        await harness.sandbox.register(SandboxClient(provider: .bankid, clientID: "other", clientSecret: "other-secret-012345", redirectURIs: [SandboxHarness.redirectURI]))
        try await harness.run { client in
            let (unauthorized, body) = try await client.json("/sandbox/bankid/rp/v6.0/auth", method: .post, headers: [.contentType: "application/json"], body: #"{"endUserIp":"1.2.3.4"}"#)
            #expect(unauthorized == .unauthorized && body["errorCode"] as? String == "unauthorized")
            let order = try await start(client)
            let other: HTTPFields = [.authorization: "Basic " + Data("other:other-secret-012345".utf8).base64EncodedString(), .contentType: "application/json"]
            let (stolen, error) = try await client.json("/sandbox/bankid/rp/v6.0/collect", method: .post, headers: other, body: #"{"orderRef":"\#(order["orderRef"]!)"}"#)
            #expect(stolen == .badRequest && error["errorCode"] as? String == "invalidParameters")
            for body in [#"{"orderRef":"nope"}"#, "not json", "{}"] {
                let status = try await client.execute(uri: "/sandbox/bankid/rp/v6.0/collect", method: .post, headers: Self.relyingParty, body: .init(string: body)).status
                #expect(status == .badRequest, "\(body)")
            }
            let (emptyIP, _) = try await client.json("/sandbox/bankid/rp/v6.0/auth", method: .post, headers: Self.relyingParty, body: #"{"endUserIp":""}"#)
            #expect(emptyIP == .badRequest)
        }
    }

    @Test("The app page never links to a script URL given as redirect")
    func scriptRedirect() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let order = try await start(client)
            let response = try await client.execute(uri: "/sandbox/bankid/app", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                                                    body: .init(string: "autostarttoken=\(order["autoStartToken"]!)&user=kari&action=approve&redirect=javascript%3Aalert(1)"))
            #expect(!String(buffer: response.body).contains("javascript:"))
        }
    }
}
