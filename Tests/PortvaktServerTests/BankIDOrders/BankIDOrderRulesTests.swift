import PortvaktDomain
import Foundation
import PortvaktCore
@testable import PortvaktServer
import Testing

/// The order flow's rules without a server: hint codes, the deep link and its allow-list.
@Suite("BankID order rules")
struct BankIDOrderRulesTests {
    @Test("Every documented hint code has its message; unknown ones get a generic message", arguments: [
        ("pending", "outstandingTransaction", "bankid_start_app"),
        ("pending", "noClient", "bankid_start_app"),
        ("pending", "started", "bankid_searching"),
        ("pending", "userSign", "bankid_sign_in_app"),
        ("pending", "somethingNew", "bankid_waiting"),
        ("pending", nil, "bankid_waiting"),
        ("failed", "userCancel", "bankid_cancelled"),
        ("failed", "cancelled", "bankid_cancelled"),
        ("failed", "expiredTransaction", "bankid_expired"),
        ("failed", "certificateErr", "bankid_certificate_error"),
        ("failed", "startFailed", "bankid_start_failed"),
        ("failed", "somethingNew", "login_failed"),
        ("failed", nil, "login_failed"),
        ("failed", "notRegistered", "not_registered"),
    ] as [(String, String?, String)])
    func hintCodes(status: String, hint: String?, messageID: String) {
        let message: UserMessage
        if status == "pending" {
            message = BankIDHint.pendingMessage(hint)
        } else if case .failed(_, let failure, _) = BankIDOrderOutcome.failure(hint) {
            message = failure
        } else {
            Issue.record("a failure must stay a failure")
            return
        }
        #expect(message.id == messageID)
        #expect(!message.text(.nb).isEmpty && !message.text(.en).isEmpty && message.text(.nb) != message.text(.en))
    }

    @Test("A user's cancel is quiet (no error dialog); an expiry offers a retry")
    func messageKinds() {
        #expect(BankIDHint.failureMessage("userCancel").isQuiet)
        #expect(BankIDHint.failureMessage("expiredTransaction").isRetryable)
        #expect(BankIDHint.failureError("userCancel") == .accessDenied)
        #expect(BankIDHint.failureError("somethingNew") == .serverError)
    }

    @Test("S3.4 the deep link percent-encodes the token and the redirect; no redirect → redirect=null")
    func deepLink() {
        #expect(BankIDLaunchLink.url(autoStartToken: "a b&c", redirect: "https://app.portvakt.no/bankid/return?x=1&y=2#z")
            == "bankid:///?autostarttoken=a%20b%26c&redirect=https%3A%2F%2Fapp.portvakt.no%2Fbankid%2Freturn%3Fx%3D1%26y%3D2%23z")
        #expect(BankIDLaunchLink.url(autoStartToken: "7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6", redirect: nil)
            == "bankid:///?autostarttoken=7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6&redirect=null")
    }

    @Test("The return allow-list: the app's scheme and its claimed https link, exactly; never plain http, even when listed")
    func returnAllowList() throws {
        var app = try #require(AppClient.development.first { $0.id == "no.portvakt.app" })
        #expect(app.allowsBankIDReturn("no.portvakt.app:/bankid/return"))
        #expect(!app.allowsBankIDReturn("https://app.portvakt.no/bankid/return"), "no product URL is built in (issue 46)")
        app.bankIDReturnURLs.append("https://app.portvakt.no/bankid/return")
        #expect(app.allowsBankIDReturn("https://app.portvakt.no/bankid/return"))
        #expect(!app.allowsBankIDReturn("no.portvakt.app:/bankid/return/../../evil"))
        #expect(!app.allowsBankIDReturn("https://app.portvakt.no.evil.example/bankid/return"))
        #expect(!app.allowsBankIDReturn("NO.PORTVAKT.APP:/bankid/return "))
        let careless = AppClient(id: "x", redirectURIs: [], loopbackPaths: [], postLogoutRedirectURIs: [], bankIDReturnURLs: ["http://127.0.0.1/return"])
        #expect(!careless.allowsBankIDReturn("http://127.0.0.1/return"))
        let cli = try #require(AppClient.development.first { $0.id == "portvakt-cli" })
        #expect(!cli.allowsBankIDReturn("http://127.0.0.1:4000/callback"))
    }
}
