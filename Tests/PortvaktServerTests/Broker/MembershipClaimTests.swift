import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// S15: a BankID or Vipps login that finds no member record may claim one by the email on it,
/// with a one-time code sent there; nobody learns which addresses are on record.
@Suite("Claiming a membership by an emailed code (S15)")
struct MembershipClaimTests {
    static let liseEmail = "lise@sandbox.portvakt.test"
    static let liseBankIDSubject = "b1d00000-0000-4000-8000-000000000013"

    /// A hidden form field's value in a page.
    static func hiddenField(_ name: String, in html: String) -> String? {
        guard let start = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = html[start.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// A claim as the browser it was offered to holds it: the form's handle and the cookie that
    /// binds it to that browser.
    struct ClaimInBrowser: Sendable {
        let handle: String
        let cookie: String

        var headers: [(String, String)] { [("Cookie", cookie)] }
    }

    /// The `name=value` a reply's `Set-Cookie` asks the browser to send back.
    static func cookie(of reply: LiveBroker.Reply) -> String {
        reply.cookie("portvakt_claim") ?? ""
    }

    /// A login as `user` that found no record: the app's login and the claim page's handle.
    static func claimPage(_ broker: LiveBroker, user: String, provider: String = "bankid") async throws -> (login: AppLogin, page: LiveBroker.Reply, handle: ClaimInBrowser) {
        let login = AppLogin()
        let start = try await broker.send(login.authorizeURL(method: provider))
        let atProvider = try await broker.send(try #require(start.location) + "&sandbox_user=\(user)&sandbox_action=approve")
        let page = try await broker.send(try #require(atProvider.location))
        #expect(page.status == 200, "the callback answered \(page.status): \(page.body.prefix(200))")
        return (login, page, ClaimInBrowser(handle: try #require(hiddenField("claim", in: page.body)), cookie: cookie(of: page)))
    }

    static func sendCode(_ broker: LiveBroker, handle: ClaimInBrowser, email: String) async throws -> LiveBroker.Reply {
        try await broker.send("/oauth/claim/email", method: .POST, form: [("claim", handle.handle), ("email", email)], headers: handle.headers)
    }

    static func enter(_ broker: LiveBroker, handle: ClaimInBrowser, code: String) async throws -> LiveBroker.Reply {
        try await broker.send("/oauth/claim/code", method: .POST, form: [("claim", handle.handle), ("code", code)], headers: handle.headers)
    }

    /// The newest membership code mailed to `recipient`, as the sandbox's mailbox shows it.
    static func mailedCode(_ broker: LiveBroker, to recipient: String) async throws -> String? {
        for message in try await AdminPortalTests.mailbox(broker) where message.contains(recipient) {
            if let match = message.firstMatch(of: /<p>(\d{6})<\/p>/) { return String(match.1) }
        }
        return nil
    }

    @Test("S15.2: Lise, whose record has only her email, claims it with the code mailed there; her number is written back and audited, and the app gets its code", arguments: TestDatabase.kinds)
    func S15_2_liseClaimsHerMembership(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let (login, page, handle) = try await Self.claimPage(broker, user: "lise")
            #expect(page.body.contains("Vi fant deg ikke") && page.body.contains(#"autocomplete="email""#))
            #expect(page.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)

            let sent = try await Self.sendCode(broker, handle: handle, email: " Lise@Sandbox.Portvakt.test ")
            #expect(sent.status == 200)
            #expect(sent.body.contains(#"autocomplete="one-time-code""#) && sent.body.contains("10 minutter"))
            let code = try #require(try await Self.mailedCode(broker, to: Self.liseEmail))

            let wrong = try await Self.enter(broker, handle: handle, code: code == "000000" ? "111111" : "000000")
            #expect(wrong.status == 400 && wrong.body.contains("4 forsøk igjen"))

            let linked = try await Self.enter(broker, handle: handle, code: String(code.prefix(3)) + " " + code.dropFirst(3))
            #expect(linked.status == 303)
            let app = AppCallback(location: linked.location)
            #expect(app.fields["state"] == login.state)
            let tokens = try await login.redeem(try #require(app.code), at: broker)
            #expect(tokens.status == 200)
            let access = LiveBroker.claims(try #require(tokens.string("access_token")))
            #expect((access["org"] as? [[String: Any]])?.first?["slug"] as? String == "hlf")

            let record = try #require(try await broker.memberRecord("hlf", externalRef: "sandbox-lise"))
            #expect(record.personnummer != nil, "the login's number is written back to the record")
            let recordEvents = try await broker.withStore { try await $0.auditEvents(subjectType: "member_record", subjectID: record.id) }
            #expect(recordEvents.map(\.action) == ["member.claim.code_sent", "member.claim.failed", "member.claim.linked"], "the wrong try too")
            let writeBack = try await broker.withStore { try await $0.auditEvents(subjectType: "member", subjectID: record.id) }
            #expect(writeBack.map(\.action) == ["member.personnummer.updated"])

            #expect(try await Self.enter(broker, handle: handle, code: code).status == 400, "a code links once")
            let (again, _) = try await broker.providerLogin(AppLogin(), provider: "bankid", user: "lise")
            #expect(again.code != nil, "the next login finds her at once")
            #expect(!broker.logs.text.contains(code) && !broker.logs.text.contains("13528021934") && !broker.logs.text.contains(handle.handle))
        }
    }

    @Test("S15.2, review IV item 1: a claim continues only in the browser it was offered to and only from this site; the code page shows only the address it sent to", arguments: TestDatabase.kinds)
    func S15_2_claimBoundToItsBrowser(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            // The attacker's own claim, and the victim's browser, which holds another claim's cookie or none.
            let (_, page, attacker) = try await Self.claimPage(broker, user: "lise")
            #expect(attacker.cookie.hasPrefix("portvakt_claim="))
            let setCookie = page.setCookie("portvakt_claim") ?? ""
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax"))
            let (_, _, other) = try await Self.claimPage(broker, user: "una")
            for cookie in ["", other.cookie, "portvakt_claim=" + String(repeating: "A", count: 43)] {
                let forged = ClaimInBrowser(handle: attacker.handle, cookie: cookie)
                let sent = try await Self.sendCode(broker, handle: forged, email: Self.liseEmail)
                #expect(sent.status == 403 && sent.body.contains("another browser"), "\(sent.status)")
                #expect(try await Self.enter(broker, handle: forged, code: "123456").status == 403)
            }
            #expect(try await Self.mailedCode(broker, to: Self.liseEmail) == nil, "no code was mailed")

            // A cross-site post is refused before anything else, even with the right cookie.
            for header in [("Origin", "https://evil.example"), ("Sec-Fetch-Site", "cross-site"), ("Sec-Fetch-Site", "same-site")] {
                let crossSite = try await broker.send(
                    "/oauth/claim/email", method: .POST, form: [("claim", attacker.handle), ("email", Self.liseEmail)], headers: attacker.headers + [header]
                )
                #expect(crossSite.status == 403 && crossSite.body.contains("another site"), "\(header): \(crossSite.status)")
            }
            #expect(try await Self.mailedCode(broker, to: Self.liseEmail) == nil)
            let ownPost = try await broker.send(
                "/oauth/claim/email", method: .POST, form: [("claim", attacker.handle), ("email", Self.liseEmail)],
                headers: attacker.headers + [("Sec-Fetch-Site", "same-origin"), ("Origin", broker.baseURL)]
            )
            #expect(ownPost.status == 200 && ownPost.body.contains(Self.liseEmail), "the person who started it goes on")

            // An address the form carries without this server's signature is not shown.
            let planted = "support-call-us@evil.example"
            let wrong = try await broker.send(
                "/oauth/claim/code", method: .POST, form: [("claim", attacker.handle), ("code", "000000"), ("email", planted), ("email_signature", "x")],
                headers: attacker.headers
            )
            #expect(wrong.status == 400 && !wrong.body.contains(planted))
            let signature = try #require(Self.hiddenField("email_signature", in: ownPost.body))
            let signed = try await broker.send(
                "/oauth/claim/code", method: .POST, form: [("claim", attacker.handle), ("code", "000000"), ("email", Self.liseEmail), ("email_signature", signature)],
                headers: attacker.headers
            )
            #expect(signed.body.contains(Self.liseEmail), "the address it sent to is shown again")
        }
    }

    @Test("S15.1: an address not on record, or on a record that has a number, gets the same page and no email; a claim sends three codes at most")
    func S15_1_nobodyLearnsWhichAddressesAreOnRecord() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let (_, _, handle) = try await Self.claimPage(broker, user: "una")
            let unknown = try await Self.sendCode(broker, handle: handle, email: "nobody@sandbox.portvakt.test")
            let numbered = try await Self.sendCode(broker, handle: handle, email: "ola@sandbox.portvakt.test")
            #expect(unknown.status == 200 && numbered.status == 200)
            // The address and its signature (which depends on the address alone) differ; nothing else may.
            let strip = { (body: String) in
                body.replacingOccurrences(of: "nobody@", with: "").replacingOccurrences(of: "ola@", with: "")
                    .replacing(/name="email_signature" value="[^"]*"/, with: "")
            }
            #expect(strip(unknown.body) == strip(numbered.body), "nothing tells the two apart")
            #expect(try await Self.mailedCode(broker, to: "nobody@sandbox.portvakt.test") == nil)
            #expect(try await Self.mailedCode(broker, to: "ola@sandbox.portvakt.test") == nil, "Ola's record has a number: it is not claimable by email")

            #expect(try await Self.sendCode(broker, handle: handle, email: "not an address").status == 400)
            #expect(try await Self.sendCode(broker, handle: handle, email: "nobody@sandbox.portvakt.test").status == 200)
            #expect(try await Self.sendCode(broker, handle: handle, email: "nobody@sandbox.portvakt.test").status == 429, "three codes per claim")
            #expect(try await Self.enter(broker, handle: ClaimInBrowser(handle: "not-a-claim", cookie: handle.cookie), code: "123456").status == 403, "a handle without its cookie")
        }
    }

    @Test("S15.3: a code older than 10 minutes says so and a new one can be sent; the new code links")
    func S15_3_anExpiredCodeOffersANewOne() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let (_, _, handle) = try await Self.claimPage(broker, user: "lise")
            _ = try await Self.sendCode(broker, handle: handle, email: Self.liseEmail)
            let first = try #require(try await Self.mailedCode(broker, to: Self.liseEmail))
            broker.clock.advance(by: 601)
            let expired = try await Self.enter(broker, handle: handle, code: first)
            #expect(expired.status == 400 && expired.body.contains("eldre enn 10 minutter") && expired.body.contains("/oauth/claim/email"))
            _ = try await Self.sendCode(broker, handle: handle, email: Self.liseEmail)
            let second = try #require(try await Self.mailedCode(broker, to: Self.liseEmail))
            #expect(try await Self.enter(broker, handle: handle, code: second).status == 303)
        }
    }

    @Test("S15.3: parallel wrong codes are counted before they are compared: five are judged, the claim ends, the app hears membership_claim_ended, and the right code no longer links", arguments: TestDatabase.kinds)
    func S15_3_fiveTriesCountedFirst(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let (_, _, handle) = try await Self.claimPage(broker, user: "lise")
            _ = try await Self.sendCode(broker, handle: handle, email: Self.liseEmail)
            let code = try #require(try await Self.mailedCode(broker, to: Self.liseEmail))
            let wrong = code == "000000" ? "111111" : "000000"
            let answers = try await withThrowingTaskGroup(of: LiveBroker.Reply.self) { group in
                for _ in 0..<9 { group.addTask { try await Self.enter(broker, handle: handle, code: wrong) } }
                return try await group.reduce(into: [LiveBroker.Reply]()) { $0.append($1) }
            }
            let judged = answers.filter { $0.body.contains("Feil kode") }
            let toApp = answers.filter { $0.status == 303 }
            #expect(judged.count == 4 && toApp.count == 1, "four wrong-code pages and one end: \(answers.map(\.status))")
            #expect(AppCallback(location: toApp.first?.location).messageID == "membership_claim_ended")
            #expect(try await Self.enter(broker, handle: handle, code: code).status == 400)
            #expect(try await broker.withStore { try await $0.user(provider: .bankid, subject: Self.liseBankIDSubject) } == nil, "never linked")
        }
    }
}
