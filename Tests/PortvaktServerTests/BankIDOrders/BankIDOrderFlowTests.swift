import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// The BankID order flow end to end over HTTP: the app starts an order at Portvakt, the sandbox's
/// BankID app approves or cancels, the app collects and redeems the code; on SQLite and PostgreSQL.
@Suite("BankID order flow end to end")
struct BankIDOrderFlowTests {
    @Test("S3.1/S3.2 start → approve in the BankID app → collect → a normal session, redeemed once, only with the verifier", arguments: TestDatabase.kinds)
    func approve(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let login = AppLogin()
            let started = try await broker.startOrder(login)
            #expect(started.status == 201)
            let session = try #require(started.string("sessionId"))
            let autoStartToken = try #require(started.string("autoStartToken"))
            #expect(started.string("launchURL") == "bankid:///?autostarttoken=\(autoStartToken)&redirect=null")
            #expect(started.string("qrCodeUri") == broker.baseURL + "/bankid/orders/qr")
            #expect(started.json["expiresIn"] as? Int == 180)
            #expect(started.json["pollInterval"] as? Int == 2)
            #expect(started.json["qrStartSecret"] == nil && !started.body.contains("qrStartSecret"), "the QR secret stays on the server")

            let waiting = try await broker.collect(session)
            #expect(waiting.string("status") == "pending")
            #expect(waiting.string("hintCode") == "outstandingTransaction")
            #expect(waiting.string("messageId") == "bankid_start_app")

            let approved = try await broker.bankIDApp(autoStartToken: autoStartToken, action: "approve")
            #expect(approved.string("status") == "complete")
            let done = try await broker.collect(session)
            #expect(done.string("status") == "complete")
            let code = try #require(done.string("code"))
            let again = try await broker.collect(session)
            #expect(again.string("code") == code, "a repeated collect (first answer lost) gets the same code")

            let tokens = try await login.redeem(code, at: broker)
            #expect(tokens.status == 200, "\(tokens.body)")
            let access = LiveBroker.claims(try #require(tokens.string("access_token")))
            #expect(access["amr"] as? [String] == ["BID"])
            #expect((access["org"] as? [[String: Any]])?.compactMap { $0["slug"] as? String } == ["hlf", "nhf"])
            let refreshed = try await broker.refresh(try #require(tokens.string("refresh_token")))
            #expect(refreshed.status == 200, "the order's session refreshes like any other")

            let twice = try await login.redeem(code, at: broker)
            #expect(twice.status == 400)
            #expect(twice.string("error") == "invalid_grant")

            // The same person through BankID OIDC reaches the same user.
            let oidc = try await broker.tokens(provider: "bankid", user: "magnus")
            #expect(LiveBroker.claims(oidc["access_token"] as! String)["sub"] as? String == access["sub"] as? String)

            for secret in [session, code, autoStartToken, "05878330724"] {
                #expect(!broker.logs.text.contains(secret), "the logs must not carry session ids, codes, tokens or personnummer")
            }
        }
    }

    @Test("The code is redeemed only with the order's PKCE verifier; a wrong one burns it")
    func wrongVerifier() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = AppLogin()
            let order = try await broker.startedOrder(login)
            _ = try await broker.bankIDApp(autoStartToken: order.autoStartToken, action: "approve")
            let answer1 = try await broker.collect(order.session)
            let code = try #require(answer1.string("code"))
            let stolen = try await login.redeem(code, at: broker, verifier: PKCE.makeVerifier())
            #expect(stolen.status == 400)
            #expect(stolen.string("error") == "invalid_grant")
            let late = try await login.redeem(code, at: broker)
            #expect(late.status == 400, "the code is gone after the first attempt")
        }
    }

    @Test("S1.4 start → the user cancels in the BankID app → failed, userCancel, bankid_cancelled", arguments: TestDatabase.kinds)
    func userCancels(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let order = try await broker.startedOrder(AppLogin())
            _ = try await broker.bankIDApp(autoStartToken: order.autoStartToken, action: "cancel")
            let reply = try await broker.collect(order.session)
            #expect(reply.string("status") == "failed")
            #expect(reply.string("hintCode") == "userCancel")
            #expect(reply.string("messageId") == "bankid_cancelled")
            #expect(reply.string("message") == "BankID-innloggingen ble avbrutt", "Norwegian unless the app asked otherwise")
            #expect(reply.string("error") == "access_denied")
            #expect(reply.string("code") == nil)
        }
    }

    @Test("S3.7 no result within 3 minutes → expiredTransaction, whatever the client does; cancel after expiry and twice is harmless", arguments: TestDatabase.kinds)
    func expires(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let order = try await broker.startedOrder(AppLogin(), extra: ["ui_locales": "en"])
            broker.clock.advance(by: 179)
            let reply1 = try await broker.collect(order.session)
            #expect(reply1.string("status") == "pending")
            broker.clock.advance(by: 1)
            let expired = try await broker.collect(order.session)
            #expect(expired.string("status") == "failed")
            #expect(expired.string("hintCode") == "expiredTransaction")
            #expect(expired.string("messageId") == "bankid_expired")
            #expect(expired.string("message") == "The BankID login took too long and was stopped. Please try again.")
            // The provider's order was cancelled too: approving it now changes nothing.
            let late = try await broker.bankIDApp(autoStartToken: order.autoStartToken, action: "approve")
            #expect(late.string("status") != "complete")
            let reply2 = try await broker.collect(order.session)
            #expect(reply2.string("hintCode") == "expiredTransaction")
            for _ in 0..<2 {
                let cancelled = try await broker.cancelOrder(order.session)
                #expect(cancelled.status == 200)
                #expect(cancelled.string("hintCode") == "expiredTransaction")
            }
            let reply3 = try await broker.qrFrame(order.session)
            #expect(reply3.status == 410, "no QR code for an ended order")
        }
    }

    @Test("An order nobody collects expires all the same: cancel after 3 minutes reports the expiry")
    func expiresWithoutCollect() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let order = try await broker.startedOrder(AppLogin())
            broker.clock.advance(by: 181)
            let cancelled = try await broker.cancelOrder(order.session)
            #expect(cancelled.string("hintCode") == "expiredTransaction")
            #expect(cancelled.string("messageId") == "bankid_expired")
        }
    }

    @Test("S3.8 cancel at any time: the order ends here and at the provider; cancelling again gives the same answer", arguments: TestDatabase.kinds)
    func cancel(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let order = try await broker.startedOrder(AppLogin())
            let first = try await broker.cancelOrder(order.session)
            #expect(first.status == 200)
            #expect(first.string("status") == "failed")
            #expect(first.string("hintCode") == "cancelled")
            #expect(first.string("messageId") == "bankid_cancelled")
            let second = try await broker.cancelOrder(order.session)
            #expect(second.status == 200)
            #expect(second.body == first.body)
            let approve = try await broker.bankIDApp(autoStartToken: order.autoStartToken, action: "approve")
            #expect(approve.string("status") == "failed", "the provider's order is cancelled: \(approve.body)")
            let reply4 = try await broker.collect(order.session)
            #expect(reply4.string("status") == "failed")
        }
    }

    @Test("Cancel after completion changes nothing: the code still works")
    func cancelAfterComplete() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = AppLogin()
            let order = try await broker.startedOrder(login)
            _ = try await broker.bankIDApp(autoStartToken: order.autoStartToken, action: "approve")
            let answer2 = try await broker.collect(order.session)
            let code = try #require(answer2.string("code"))
            let reply5 = try await broker.cancelOrder(order.session)
            #expect(reply5.string("status") == "complete")
            let reply6 = try await login.redeem(code, at: broker)
            #expect(reply6.status == 200)
        }
    }

    @Test("Every hint code the sandbox can produce reaches the app with its message id")
    func hintCodes() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            // userSign once the BankID app has opened the order.
            let opened = try await broker.startedOrder(AppLogin())
            _ = try await broker.send("/sandbox/bankid/app?autostarttoken=\(opened.autoStartToken)")
            let signing = try await broker.collect(opened.session)
            #expect(signing.string("hintCode") == "userSign")
            #expect(signing.string("messageId") == "bankid_sign_in_app")

            for (fault, action, hint, message) in [
                ("start_failed", "open", "startFailed", "bankid_start_failed"),
                ("certificate_error", "approve", "certificateErr", "bankid_certificate_error"),
                ("unknown_hint", "open", "sandboxHintNobodyKnows", "bankid_waiting"),
            ] {
                try await broker.setFaults([fault], for: "bankid")
                let order = try await broker.startedOrder(AppLogin())
                if action == "open" {
                    _ = try await broker.send("/sandbox/bankid/app?autostarttoken=\(order.autoStartToken)")
                } else {
                    _ = try await broker.bankIDApp(autoStartToken: order.autoStartToken, action: action)
                }
                let reply = try await broker.collect(order.session)
                #expect(reply.status == 200, "an unknown hint code is no crash")
                #expect(reply.string("hintCode") == hint, "\(fault)")
                #expect(reply.string("messageId") == message, "\(fault)")
            }
        }
    }

    @Test("A person no organisation has registered → failed with not_registered, no session")
    func notRegistered() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let order = try await broker.startedOrder(AppLogin())
            _ = try await broker.bankIDApp(autoStartToken: order.autoStartToken, user: "una", action: "approve")
            let reply = try await broker.collect(order.session)
            #expect(reply.string("status") == "failed")
            #expect(reply.string("messageId") == "not_registered")
            #expect(reply.string("error") == "access_denied")
        }
    }

    @Test("S3.5 the QR code: a new frame each second, computed on the server, accepted by the BankID app")
    func qrCode() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = AppLogin()
            let order = try await broker.startedOrder(login)
            let first = try await broker.qrFrame(order.session)
            #expect(first.status == 200)
            let data = try #require(first.string("qrData"))
            #expect(data.hasPrefix("bankid.") && data.split(separator: ".").count == 4)
            #expect(first.json["seconds"] as? Int == 0)
            let reply7 = try await broker.qrFrame(order.session)
            #expect(reply7.string("qrData") == data, "the same second, the same frame")
            broker.clock.advance(by: 1)
            let next = try await broker.qrFrame(order.session)
            #expect(next.json["seconds"] as? Int == 1)
            let nextData = try #require(next.string("qrData"))
            #expect(nextData != data)
            #expect(data.split(separator: ".")[1] == nextData.split(separator: ".")[1], "the same qrStartToken")

            let answer3 = try await broker.qrFrame(order.session, format: "svg")
            let svg = try #require(answer3.string("svg"))
            #expect(svg.hasPrefix("<svg") && svg.contains(#"role="img""#) && svg.contains("aria-label="))
            let answer4 = try await broker.qrFrame(order.session, format: "text")
            let text = try #require(answer4.string("text"))
            #expect(text.contains("█"))

            // Scanning the frame of the sandbox's current second (its clock was not moved) approves the order.
            let scanned = try await broker.bankIDApp(qr: data, action: "approve")
            #expect(scanned.string("status") == "complete", "\(scanned.body)")
            let answer5 = try await broker.collect(order.session)
            let code = try #require(answer5.string("code"))
            let reply8 = try await login.redeem(code, at: broker)
            #expect(reply8.status == 200)
        }
    }

    @Test("S3.4 the deep link carries the allowed return URL percent-encoded")
    func deepLink() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let reply = try await broker.startOrder(AppLogin(), extra: ["return_url": "no.portvakt.app:/bankid/return"])
            #expect(reply.status == 201)
            let token = try #require(reply.string("autoStartToken"))
            #expect(reply.string("launchURL") == "bankid:///?autostarttoken=\(token)&redirect=no.portvakt.app%3A%2Fbankid%2Freturn")
        }
    }

    @Test("S1.5 BankID down → 503 temporarily_unavailable + bankid_unavailable; too slow → 504 well before the provider answers")
    func providerTrouble() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            try await broker.setFaults(["outage"], for: "bankid")
            let down = try await broker.startOrder(AppLogin())
            #expect(down.status == 503)
            #expect(down.string("error") == "temporarily_unavailable")
            #expect(down.string("message_id") == "bankid_unavailable")

            try await broker.setFaults(["slow"], for: "bankid") // the sandbox waits 8 s
            let clock = ContinuousClock()
            let began = clock.now
            let slow = try await broker.startOrder(AppLogin())
            #expect(slow.status == 504)
            #expect(slow.string("message_id") == "bankid_unavailable")
            #expect(clock.now - began < .seconds(5), "the order start gives up after its 1.5 s timeout, not after the provider's 8 s")
        }
    }
}
