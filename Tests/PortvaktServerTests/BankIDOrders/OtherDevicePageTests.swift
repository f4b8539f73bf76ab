import Foundation
import PortvaktCore
import Testing

/// "BankID on another device" in a desktop browser: the page, its accessibility, and the way
/// back to the app with a code or an error.
@Suite("BankID on another device page")
struct OtherDevicePageTests {
    static func pageURL(_ login: AppLogin, language: String = "nb") -> String {
        login.authorizeURL(method: nil, extra: [("ui_locales", language)]).replacingOccurrences(of: "/oauth/authorize?", with: "/oauth/bankid/other-device?")
    }

    /// The session id the page carries for its script.
    static func session(in page: String) throws -> String {
        let marker = #"data-session=""#
        let start = try #require(page.range(of: marker)).upperBound
        return String(page[start...].prefix { $0 != "\"" })
    }

    @Test("S3.5 the method page offers it; the page shows an accessible QR code, a live status and the time left, in nb and en")
    func page() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = AppLogin()
            let methods = try await broker.send(login.authorizeURL(method: nil))
            #expect(methods.body.contains("/oauth/bankid/other-device?"))
            #expect(methods.body.contains("BankID på en annen enhet"))

            let page = try await broker.send(Self.pageURL(login))
            #expect(page.status == 200)
            #expect(page.body.contains(#"<html lang="nb">"#))
            #expect(page.body.contains(#"<svg"#) && page.body.contains(#"role="img""#))
            #expect(page.body.contains(#"aria-label="QR-kode for BankID. Skann den med BankID-appen på mobilen din.""#))
            #expect(page.body.contains(#"role="status" aria-live="polite""#))
            #expect(page.body.contains("Start BankID-appen, eller skann QR-koden med den."))
            #expect(page.body.contains(#"<span id="time-left">3:00</span>"#))
            #expect(page.body.contains(#"<button type="submit" class="secondary">Avbryt</button>"#), "cancel is a real button, reachable by keyboard")
            #expect(page.body.contains("<noscript>"), "without script, a button checks the status")
            let policy = try #require(page.headers["content-security-policy"])
            #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"))
            let script = try await broker.send("/oauth/bankid/other-device.js")
            #expect(script.status == 200)
            #expect(script.body.contains("/bankid/orders/qr"))

            let english = try await broker.send(Self.pageURL(AppLogin(), language: "en"))
            #expect(english.body.contains(#"<html lang="en">"#))
            #expect(english.body.contains("Scan it with the BankID app on your phone."))
            #expect(english.body.contains(">Cancel</button>"))
        }
    }

    @Test("Scanned and approved → the browser goes to the app with code, state and iss; the code redeems")
    func approve() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = AppLogin()
            let page = try await broker.send(Self.pageURL(login))
            let session = try Self.session(in: page.body)
            let waiting = try await broker.postJSON("/oauth/bankid/other-device/collect", ["sessionId": session])
            #expect(waiting.string("redirect") == nil)
            #expect(waiting.string("message") == "Start BankID-appen, eller skann QR-koden med den.")

            let frame = try await broker.qrFrame(session)
            let scanned = try await broker.bankIDApp(qr: try #require(frame.string("qrData")), user: "ola", action: "approve")
            #expect(scanned.string("status") == "complete")
            let done = try await broker.postJSON("/oauth/bankid/other-device/collect", ["sessionId": session])
            let app = AppCallback(location: try #require(done.string("redirect")))
            #expect(app.fields["state"] == login.state)
            #expect(app.fields["iss"] == broker.baseURL)
            let code = try #require(app.code)
            let tokens = try await login.redeem(code, at: broker)
            #expect(tokens.status == 200)
        }
    }

    @Test("Without script: the status button re-renders while pending and redirects once it has ended; cancel redirects with bankid_cancelled")
    func withoutScript() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = AppLogin()
            let page = try await broker.send(Self.pageURL(login))
            let session = try Self.session(in: page.body)
            let pending = try await broker.send("/oauth/bankid/other-device/collect", method: .POST, form: [("session", session)])
            #expect(pending.status == 200)
            #expect(pending.body.contains(#"role="status""#))

            let cancelled = try await broker.send("/oauth/bankid/other-device/cancel", method: .POST, form: [("session", session)])
            #expect(cancelled.status == 303)
            let app = AppCallback(location: cancelled.location)
            #expect(app.error == "access_denied")
            #expect(app.messageID == "bankid_cancelled")
            #expect(app.fields["state"] == login.state)

            let unknown = try await broker.send("/oauth/bankid/other-device/collect", method: .POST, form: [("session", "nonsense")])
            #expect(unknown.status == 404)
        }
    }

    @Test("A broken authorization request gets the same refusal as /oauth/authorize; BankID down → back to the app with bankid_unavailable")
    func refusals() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let evil = try await broker.send("/oauth/bankid/other-device?client_id=evil&redirect_uri=https://evil.example/")
            #expect(evil.status == 400)
            #expect(evil.location == nil, "never a redirect to an unchecked URI")

            try await broker.setFaults(["outage"], for: "bankid")
            let down = try await broker.send(Self.pageURL(AppLogin()))
            #expect(down.status == 303)
            #expect(AppCallback(location: down.location).messageID == "bankid_unavailable")
        }
    }
}
