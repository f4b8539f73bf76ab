import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktProtocol
import PortvaktStorage
import PortvaktTestSupport
import Testing
import WebAuthn
@testable import PortvaktServer

/// S18 over real HTTP, on SQLite and PostgreSQL: a server named `http://localhost:PORT` (the RP
/// ID must be a domain) and a software authenticator that signs for real.
@Suite("Passkeys on the web (S18)")
struct PasskeyTests {
    /// A server whose public URL names localhost, as `dev` does by default.
    static func run(_ kind: DatabaseKind, settings: [String: String] = [:], _ body: @escaping @Sendable (LiveBroker) async throws -> Void) async throws {
        let port = Cluster.freePorts(1)[0]
        let named = ["PORTVAKT_PORT": "\(port)", "PORTVAKT_PUBLIC_URL": "http://localhost:\(port)"]
        try await LiveBroker.run(kind, settings: named.merging(settings) { $1 }, body)
    }

    /// A passkey as the test holds it: the authenticator and the user handle it was made for.
    struct Holder: Sendable {
        let authenticator: SoftwareAuthenticator
        let userHandle: [UInt8]
    }

    static func b64(_ bytes: [UInt8]) -> String { Data(bytes).base64URLEncoded() }

    static func publicKey(_ reply: LiveBroker.Reply) throws -> [String: Any] {
        try #require(reply.json["publicKey"] as? [String: Any], "\(reply.status) \(reply.body.prefix(300))")
    }

    /// The options of a registration and the answer to them, from the signed-in browser `cookie`.
    static func register(
        _ broker: LiveBroker, cookie: String, name: String = "Jobb-PC 👩‍💻", authenticator: SoftwareAuthenticator = SoftwareAuthenticator(rpID: "localhost"),
        origin: String? = nil, flags: UInt8 = SoftwareAuthenticator.up | SoftwareAuthenticator.uv
    ) async throws -> (holder: Holder?, options: LiveBroker.Reply, reply: LiveBroker.Reply) {
        let csrf = try PortalTests.csrf(in: try await broker.send("/account", headers: [("Cookie", cookie)]).body)
        let options = try await broker.send(
            "/account/passkeys/options", method: .POST, form: [("csrf", csrf), ("name", name)], headers: [("Cookie", cookie), ("Accept", "application/json")]
        )
        guard options.status == 200 else { return (nil, options, options) }
        let publicKey = try Self.publicKey(options)
        let challengeText = try #require(publicKey["challenge"] as? String)
        let challenge = try #require(RelyingParty.base64URLDecode(challengeText))
        let user = try #require(publicKey["user"] as? [String: Any])
        let handleText = try #require(user["id"] as? String)
        let handle = try #require(RelyingParty.base64URLDecode(handleText))
        let made = authenticator.register(challenge: challenge, origin: origin ?? broker.baseURL, flags: flags)
        let reply = try await broker.send("/account/passkeys", method: .POST, form: [
            ("csrf", csrf), ("name", name), ("client_data", b64(made.clientData)), ("attestation_object", b64(made.attestation)),
        ], headers: [("Cookie", cookie)])
        return (Holder(authenticator: authenticator, userHandle: handle), options, reply)
    }

    /// A login's passkey page (`idp_hint=passkey`): its flow handle.
    static func flow(_ broker: LiveBroker, _ authorizeURL: String) async throws -> String {
        let page = try await broker.send(authorizeURL)
        #expect(page.status == 200, "\(page.body.prefix(300))")
        let match = try #require(page.body.firstMatch(of: /name="flow" value="([^"]+)"/), "no flow on \(page.body.prefix(300))")
        return String(match.1)
    }

    /// Asks the flow's challenge and answers it with `holder`'s passkey as the arguments say.
    static func answer(
        _ broker: LiveBroker, flow: String, holder: Holder, counter: UInt32, flags: UInt8 = SoftwareAuthenticator.up | SoftwareAuthenticator.uv,
        origin: String? = nil, challengeOf other: String? = nil
    ) async throws -> LiveBroker.Reply {
        let form = try await signedForm(broker, flow: flow, holder: holder, counter: counter, flags: flags, origin: origin, challengeOf: other)
        return try await broker.send("/oauth/passkey", method: .POST, form: form)
    }

    /// The form of an answer to the flow's challenge (asked of `broker`), not sent yet.
    static func signedForm(
        _ broker: LiveBroker, flow: String, holder: Holder, counter: UInt32, flags: UInt8 = SoftwareAuthenticator.up | SoftwareAuthenticator.uv,
        origin: String? = nil, challengeOf other: String? = nil
    ) async throws -> [(String, String)] {
        let options = try await broker.send("/oauth/passkey/options", method: .POST, form: [("flow", other ?? flow)], headers: [("Accept", "application/json")])
        let challengeText = try #require(try Self.publicKey(options)["challenge"] as? String)
        let challenge = try #require(RelyingParty.base64URLDecode(challengeText))
        let signed = holder.authenticator.assert(challenge: challenge, origin: origin ?? broker.baseURL, flags: flags, counter: counter)
        return [
            ("flow", flow), ("credential_id", b64(holder.authenticator.credentialID)), ("client_data", b64(signed.clientData)),
            ("authenticator_data", b64(signed.authData)), ("signature", b64(signed.signature)), ("user_handle", b64(holder.userHandle)),
        ]
    }

    /// A portal sign-in with a passkey: the browser's cookie afterwards. `stepUp` confirms the
    /// person signed in as `existing`.
    static func portalSignIn(
        _ broker: LiveBroker, holder: Holder, counter: UInt32, stepUp: String? = nil, existing: String? = nil,
        flags: UInt8 = SoftwareAuthenticator.up | SoftwareAuthenticator.uv
    ) async throws -> LiveBroker.Reply {
        let start = try await broker.send("/portal/login?method=passkey" + (stepUp.map { "&step_up=1&back=\(FormFields.encode($0))" } ?? ""),
                                          headers: existing.map { [("Cookie", $0)] } ?? [])
        let binder = try PortalTests.signInCookie(start)
        let flow = try await Self.flow(broker, try #require(start.location))
        let answered = try await answer(broker, flow: flow, holder: holder, counter: counter, flags: flags)
        #expect(answered.status == 303, "\(answered.body.prefix(300))")
        let callback = try #require(answered.location)
        return try await broker.send(callback, headers: [("Cookie", ([existing, binder] as [String?]).compactMap { $0 }.joined(separator: "; "))])
    }

    static func cookie(_ reply: LiveBroker.Reply) throws -> String {
        try #require(reply.cookie("portvakt"))
    }

    @Test("S18.1, S18.2: Kari adds a passkey after Vipps (audited, emailed), the app's login takes it once, and a replay, a counter gone back, another origin, no user verification and a challenge of another login are refused", arguments: TestDatabase.kinds)
    func registrationAndSignIn(kind: DatabaseKind) async throws {
        try await Self.run(kind) { broker in
            let kari = try await PortalTests.signIn(broker, person: "kari", method: "vipps").cookie
            let added = try await Self.register(broker, cookie: kari)
            #expect(added.options.status == 200)
            let options = try Self.publicKey(added.options)
            #expect((options["rp"] as? [String: Any])?["id"] as? String == "localhost")
            #expect((options["authenticatorSelection"] as? [String: Any])?["userVerification"] as? String == "required")
            #expect((options["pubKeyCredParams"] as? [[String: Any]])?.compactMap { $0["alg"] as? Int } == [-7, -8, -257])
            #expect(added.reply.status == 303 && added.reply.location == "/account?done=passkey_added", "\(added.reply.body.prefix(300))")
            let holder = try #require(added.holder)
            let account = try await broker.send("/account", headers: [("Cookie", kari)])
            #expect(account.body.contains("Jobb-PC") && account.body.contains("Ikke brukt ennå"))
            let kariID = String(decoding: holder.userHandle, as: UTF8.self)
            let events = try await broker.withStore { store in try await store.auditEvents(actorUserID: kariID, actions: ["passkey.registered"]) }
            #expect(events.count == 1)
            var mailed = false
            for _ in 0..<50 where !mailed {
                mailed = try await broker.send("/sandbox/mailbox").body.contains("En ny passnøkkel kan logge inn på kontoen din")
                if !mailed { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(mailed, "Kari is told by email that a passkey was added")
            // A name with a bidi override is refused before the browser makes anything.
            let spoofed = try await Self.register(broker, cookie: kari, name: "Jobb\u{202E}CP")
            #expect(spoofed.options.status == 400 && spoofed.options.string("error_description")?.contains("60 tegn") == true)
            // The same credential again: refused, saying so.
            let again = try await Self.register(broker, cookie: kari, authenticator: holder.authenticator)
            #expect(again.reply.status == 400 && again.reply.body.contains("allerede lagt til"))

            // The app's login, with the passkey: a code, and a session that says passkey.
            let login = AppLogin()
            let flow = try await Self.flow(broker, login.authorizeURL(method: "passkey"))
            let signedIn = try await Self.answer(broker, flow: flow, holder: holder, counter: 1)
            #expect(signedIn.status == 303, "\(signedIn.body.prefix(300))")
            let location = try #require(signedIn.location)
            let code = try #require(AppCallback(location: location).code)
            let redeemed = try await login.redeem(code, at: broker)
            let token = try #require(redeemed.string("access_token"))
            let claims = LiveBroker.claims(token)
            #expect(claims["acr"] as? String == Authentication.passkeyACR && claims["sub"] as? String == kariID)
            #expect(claims["amr"] as? [String] == ["hwk", "mfa"])

            // The same answer again: the login is finished and the challenge used.
            let replayed = try await broker.send("/oauth/passkey", method: .POST, form: [("flow", flow), ("credential_id", "x")])
            #expect(replayed.status == 400)

            let next = AppLogin()
            let second = try await Self.flow(broker, next.authorizeURL(method: "passkey"))
            let copied = try await Self.answer(broker, flow: second, holder: holder, counter: 1)
            #expect(copied.status == 401 && copied.body.contains("kan være kopiert"), "a counter that did not move on")
            let elsewhere = try await Self.answer(broker, flow: second, holder: holder, counter: 2, origin: "http://evil.localhost:1")
            #expect(elsewhere.status == 401 && elsewhere.body.contains("ble ikke godtatt"), "another origin")
            let unverified = try await Self.answer(broker, flow: second, holder: holder, counter: 2, flags: SoftwareAuthenticator.up)
            #expect(unverified.status == 401 && unverified.body.contains("ble ikke godtatt"), "no user verification")
            let stranger = Holder(authenticator: SoftwareAuthenticator(rpID: "localhost"), userHandle: holder.userHandle)
            #expect(try await Self.answer(broker, flow: second, holder: stranger, counter: 1).body.contains("kjenner ikke"), "a passkey nobody registered")
            let third = try await Self.flow(broker, AppLogin().authorizeURL(method: "passkey"))
            let crossed = try await Self.answer(broker, flow: second, holder: holder, counter: 2, challengeOf: third)
            #expect(crossed.status == 400, "a challenge is good for the login it was given to only")
            let good = try await Self.answer(broker, flow: second, holder: holder, counter: 2)
            #expect(good.status == 303, "the refusals left the login open: \(good.body.prefix(300))")
            let refused = try await broker.withStore { store in try await store.auditEvents(actorUserID: kariID, actions: ["passkey.refused"]) }
            #expect(refused.count >= 3)

            // Removed: it signs nobody in.
            let passkeyID = try #require(account.body.firstMatch(of: /action="\/account\/passkeys\/([^\/]+)\/remove"/)).1
            let csrf = try PortalTests.csrf(in: account.body)
            let removed = try await broker.send("/account/passkeys/\(passkeyID)/remove", method: .POST, form: [("csrf", csrf)], headers: [("Cookie", kari)])
            #expect(removed.location == "/account?done=passkey_removed")
            let gone = try await Self.answer(broker, flow: try await Self.flow(broker, AppLogin().authorizeURL(method: "passkey")), holder: holder, counter: 3)
            #expect(gone.status == 401 && gone.body.contains("kjenner ikke"))

            // From the password page's email field, a refusal is told on the password page.
            let passwordFlow = try await Self.flow(broker, AppLogin().authorizeURL(method: "password"))
            let fromPasswordPage = try await Self.answer(broker, flow: passwordFlow, holder: holder, counter: 4)
            #expect(fromPasswordPage.status == 401 && fromPasswordPage.body.contains("kjenner ikke") && fromPasswordPage.body.contains("action=\"/oauth/password\""))
        }
    }

    @Test("S18.2, S18.3: a synced passkey signs in as swk; once the person's BankID or Vipps trust has lapsed (90 days), a passkey signs in but confirms nothing", arguments: TestDatabase.kinds)
    func syncedAndLapsed(kind: DatabaseKind) async throws {
        try await Self.run(kind) { broker in
            let (up, uv, be) = (SoftwareAuthenticator.up, SoftwareAuthenticator.uv, SoftwareAuthenticator.be)
            let cookie = try await PortalTests.signIn(broker, person: "ingrid", method: "bankid").cookie
            let holder = try #require(try await Self.register(broker, cookie: cookie, flags: up | uv | be).holder)
            func signIn(counter: UInt32) async throws -> [String: Any] {
                let login = AppLogin()
                let answered = try await Self.answer(broker, flow: try await Self.flow(broker, login.authorizeURL(method: "passkey")), holder: holder, counter: counter, flags: up | uv | be)
                let location = try #require(answered.location, "\(answered.status) \(answered.body.prefix(300))")
                let code = try #require(AppCallback(location: location).code)
                let redeemed = try await login.redeem(code, at: broker)
                return LiveBroker.claims(try #require(redeemed.string("access_token")))
            }
            let now = try await signIn(counter: 0)
            #expect(now["amr"] as? [String] == ["swk", "mfa"] && now["acr"] as? String == Authentication.passkeyACR)
            broker.clock.advance(by: 91 * 86_400)
            let lapsed = try await signIn(counter: 0)
            #expect(lapsed["acr"] as? String == Authentication.passkeyUntrustedACR, "the passkey no longer stands in for BankID")
        }
    }

    @Test("S18.1: without a BankID or Vipps login in the last five minutes no passkey is added; the page offers the confirmation instead", arguments: TestDatabase.kinds)
    func registrationNeedsAFreshElectronicID(kind: DatabaseKind) async throws {
        try await Self.run(kind) { broker in
            // Issue 58: her record carries her number, so her account is made by BankID; then the password.
            _ = try await broker.bankIDLogin("ingrid")
            _ = try await PortvaktApplication.setPassword(
                configuration: broker.configuration, logger: TestDatabase.logger, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password
            )
            let ingrid = try await AdminPortalTests.signInWithPassword(broker, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password)
            let attempt = try await Self.register(broker, cookie: ingrid)
            #expect(attempt.options.status == 401 && attempt.options.string("error") == "insufficient_user_authentication")
            let account = try await broker.send("/account", headers: [("Cookie", ingrid)]).body
            #expect(!account.contains("id=\"passkey-register\"") && account.contains("step_up=1&amp;back=%2Faccount%23passkeys"))

            // Fresh from BankID she may; six minutes on she may not.
            let bankID = try await PortalTests.signIn(broker, person: "ingrid", method: "bankid").cookie
            let fresh = try await broker.send("/account", headers: [("Cookie", bankID)])
            #expect(fresh.body.contains("id=\"passkey-register\"") && fresh.headers["content-security-policy"]?.contains("script-src 'self'") == true)
            broker.clock.advance(by: 360)
            let stale = try await Self.register(broker, cookie: bankID)
            #expect(stale.options.status == 401)
        }
    }

    @Test("S18.3: Ingrid, signed in with her password, reveals a number after a passkey step-up; another person's passkey confirms nobody", arguments: TestDatabase.kinds)
    func passkeyStepUp(kind: DatabaseKind) async throws {
        try await Self.run(kind) { broker in
            let entry = try await AdminPortalTests.sofiesConflict(broker)
            let bankID = try await PortalTests.signIn(broker, person: "ingrid", method: "bankid").cookie
            let ingridAdded = try await Self.register(broker, cookie: bankID)
            let ingrid = try #require(ingridAdded.holder)
            let kariCookie = try await PortalTests.signIn(broker, person: "kari", method: "vipps").cookie
            let kariAdded = try await Self.register(broker, cookie: kariCookie)
            let kari = try #require(kariAdded.holder)
            _ = try await PortvaktApplication.setPassword(
                configuration: broker.configuration, logger: TestDatabase.logger, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password
            )
            let password = try await AdminPortalTests.signInWithPassword(broker, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password)
            let path = "/admin/nhf/sync/\(entry)"
            let masked = try await broker.send(path, headers: [("Cookie", password)]).body
            #expect(!masked.contains("14889235307") && masked.contains("method=passkey&amp;step_up=1"))

            let other = try await Self.portalSignIn(broker, holder: kari, counter: 1, stepUp: path, existing: password)
            #expect(other.status == 403, "Kari's passkey does not confirm Ingrid")
            // Its effect, not only its status: no sign-in came of it, and Ingrid's password session still sees the number masked.
            #expect(other.setCookie("portvakt") == nil)
            let afterAttempt = try await broker.send(path, headers: [("Cookie", password)])
            #expect(!afterAttempt.body.contains("14889235307"))
            let attempt = try await broker.send(
                path + "/reveal", method: .POST, form: [("csrf", try PortalTests.csrf(in: afterAttempt.body))], headers: [("Cookie", password)]
            )
            #expect(!attempt.body.contains("14889235307"), "revealing still needs a step-up: \(attempt.status)")

            let confirmed = try await Self.portalSignIn(broker, holder: ingrid, counter: 1, stepUp: path, existing: password)
            #expect(confirmed.status == 303 && confirmed.location == path, "\(confirmed.body.prefix(300))")
            let cookie = try Self.cookie(confirmed)
            let page = try await broker.send(path, headers: [("Cookie", cookie)])
            let csrf = try PortalTests.csrf(in: page.body)
            let revealed = try await broker.send(path + "/reveal", method: .POST, form: [("csrf", csrf)], headers: [("Cookie", cookie)])
            #expect(revealed.body.contains("14889235307"), "\(revealed.status) \(revealed.body.prefix(300))")
            // Five minutes on, the passkey's confirmation has lapsed like BankID's would.
            broker.clock.advance(by: 301)
            let later = try await broker.send(path + "/reveal", method: .POST, form: [("csrf", csrf)], headers: [("Cookie", cookie)])
            #expect(!later.body.contains("14889235307"))
        }
    }
}
