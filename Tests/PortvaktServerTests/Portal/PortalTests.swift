import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// The portal's sign-in, its session cookie, forms and lifetimes, over real HTTP.
@Suite("Web portal: sign-in, cookie, forms, lifetimes")
struct PortalTests {
    /// A browser's way through the portal's sign-in as `person`; returns the cookie and the code
    /// the portal was given (already redeemed by it).
    /// A browser's portal sign-in through the sandbox; `existing` is the browser's session cookie, if it has one.
    static func signIn(_ broker: LiveBroker, person: String = "kari", method: String = "vipps", back: String? = nil, existing: String? = nil) async throws -> (cookie: String, code: String) {
        let start = try await broker.send("/portal/login?method=\(method)&person=\(person)" + (back.map { "&back=\(FormFields.encode($0))" } ?? ""))
        #expect(start.status == 303)
        let binder = try signInCookie(start)
        let authorize = try await broker.send(try #require(start.location))
        let provider = try #require(authorize.location)
        #expect(provider.contains("login_hint=\(person)"), "the person is preselected at the provider")
        let approved = try await broker.send(provider + "&sandbox_user=\(person)&sandbox_action=approve")
        let back = try await broker.send(try #require(approved.location))
        let callback = try #require(back.location)
        #expect(callback.hasPrefix(broker.baseURL + "/portal/callback?"))
        let code = try #require(AppCallback(location: callback).code)
        let signedIn = try await broker.send(callback, headers: [("Cookie", ([existing, binder] as [String?]).compactMap { $0 }.joined(separator: "; "))])
        #expect(signedIn.status == 303, "\(signedIn.body.prefix(300))")
        return (try #require(signedIn.cookie("portvakt")), code)
    }

    /// `name=value` of the sign-in cookie `/portal/login` set, which the callback must see.
    static func signInCookie(_ start: LiveBroker.Reply) throws -> String {
        let setCookie = try #require(start.setCookie("portvakt_signin"))
        #expect(setCookie.hasPrefix("portvakt_signin=") && setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax"))
        return String(setCookie.split(separator: ";")[0])
    }

    static func csrf(in page: String) throws -> String {
        String(try #require(page.firstMatch(of: /name="csrf" value="([^"]+)"/)).1)
    }

    @Test("The cookie is opaque, HttpOnly and SameSite=Lax; pages carry the security headers; the portal's code is never redeemable at /oauth/token", arguments: TestDatabase.kinds)
    func cookieAndHeaders(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let start = try await broker.send("/portal/login?method=vipps&person=kari")
            let binder = try Self.signInCookie(start)
            let authorize = try await broker.send(try #require(start.location))
            let approved = try await broker.send(try #require(authorize.location) + "&sandbox_user=kari&sandbox_action=approve")
            let back = try await broker.send(try #require(approved.location))
            let callback = try #require(back.location)
            let code = try #require(AppCallback(location: callback).code)
            // Someone who got hold of the portal's code cannot redeem it: the portal has no public token endpoint.
            let stolen = try await broker.token([
                ("grant_type", "authorization_code"), ("client_id", PortalClient.id), ("code", code),
                ("redirect_uri", broker.baseURL + PortalClient.callbackPath), ("code_verifier", "x"),
            ])
            #expect(stolen.status == 401)
            let signedIn = try await broker.send(callback, headers: [("Cookie", binder)])
            #expect(signedIn.status == 303)
            #expect(signedIn.location == "/account")
            let setCookie = try #require(signedIn.setCookie("portvakt"))
            #expect(setCookie.hasPrefix("portvakt="))
            for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] { #expect(setCookie.contains(attribute), "\(attribute)") }
            #expect(!setCookie.contains("Secure"), "plain http on loopback in development")
            #expect(!setCookie.contains(code))

            let account = try await broker.send("/account", headers: [("Cookie", String(setCookie.split(separator: ";")[0]))])
            #expect(account.status == 200)
            #expect(account.body.contains("Kari Nordmann"))
            #expect(account.body.contains("Likeperson i Norges Handikapforbund"))
            let policy = try #require(account.headers["content-security-policy"])
            #expect(policy.contains("frame-ancestors 'none'") && policy.contains("default-src 'none'") && !policy.contains("script-src"))
            #expect(account.headers["x-content-type-options"] == "nosniff")
            #expect(account.headers["referrer-policy"] != nil)
            #expect(account.headers["cache-control"] == "no-store")
            #expect(!account.body.contains("<script"))
        }
    }

    @Test("Behind https the cookie is __Host- and Secure")
    func secureCookie() throws {
        let text = DataProtectionKeys.generateText()
        let keys = try DataProtectionKeys(encryptionKeys: text.encryptionKeys, indexKey: text.indexKey, encryptionSetting: "keys", indexSetting: "index")
        let cookie = PortalSessionCookie(issuer: "https://login.example.no", csrfKey: PortalSessionCookie.csrfKey(keys))
        #expect(cookie.name == "__Host-portvakt")
        let set = cookie.setting("abc", maxAge: 60)
        #expect(set.hasPrefix("__Host-portvakt=abc;") && set.contains("; Secure") && set.contains("Path=/") && !set.contains("Domain"))
        #expect(cookie.origin == "https://login.example.no")
    }

    @Test("Forms need the session's CSRF token and this site's Origin; a refused form changes nothing")
    func forms() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let (cookie, _) = try await Self.signIn(broker)
            _ = try await broker.tokens(provider: "vipps", user: "kari")  // a session in the app too
            let page = try await broker.send("/account", headers: [("Cookie", cookie)])
            let token = try Self.csrf(in: page.body)
            for (form, origin) in [([(String, String)](), nil as String?), ([("csrf", "forged")], nil), ([("csrf", token)], "https://evil.example")] {
                var headers = [("Cookie", cookie)]
                if let origin { headers.append(("Origin", origin)) }
                let refused = try await broker.send("/account/sessions/end-others", method: .POST, form: form, headers: headers)
                #expect(refused.status == 403)
                #expect(refused.body.contains("Ingenting er endret"))
            }
            let userID = try await broker.withStore { store in try await store.user(email: "kari@sandbox.portvakt.test")?.id }
            let sessions = { try await broker.withStore { store in try await store.activeSessions(userID: try #require(userID)) } }
            #expect(try await sessions().count == 2, "nothing was signed out")
            let accepted = try await broker.send("/account/sessions/end-others", method: .POST, form: [("csrf", token)], headers: [
                ("Cookie", cookie), ("Origin", broker.baseURL),
            ])
            #expect(accepted.status == 303)
            #expect(accepted.location == "/account?done=others_ended")
            #expect(try await sessions().map(\.clientId) == [PortalClient.id], "only this browser is left")
            // Another person's phone or session is not found, and says so.
            let other = try await broker.send("/account/devices/not-mine/remove", method: .POST, form: [("csrf", token)], headers: [("Cookie", cookie)])
            #expect(other.status == 404)
            #expect(other.body.contains("Fant ikke siden"))
        }
    }

    @Test("Signing out ends the portal session and the Portvakt session; 30 idle minutes or 12 hours end it too", arguments: TestDatabase.kinds)
    func lifetimes(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            // Three browsers sign in now (the sandbox's ID tokens follow the real clock, the broker's is moved below).
            let (cookie, _) = try await Self.signIn(broker)
            let (idle, _) = try await Self.signIn(broker, person: "ola")
            let (busy, _) = try await Self.signIn(broker, person: "per")
            let account = try await broker.send("/account", headers: [("Cookie", cookie)])
            let token = try Self.csrf(in: account.body)
            let out = try await broker.send("/portal/logout", method: .POST, form: [("csrf", token)], headers: [("Cookie", cookie)])
            #expect(out.status == 303)
            #expect(out.location == "/?signed_out=1")
            #expect(out.setCookie("portvakt")?.contains("Max-Age=0") == true)
            let after = try await broker.send("/account", headers: [("Cookie", cookie)])
            #expect(after.status == 401)
            #expect(after.body.contains("Du er ikke logget inn"))
            let userID = try await broker.withStore { store in try await store.user(email: "kari@sandbox.portvakt.test")?.id }
            #expect(try await broker.withStore { store in try await store.activeSessions(userID: try #require(userID)) }.isEmpty)

            let status = { (cookie: String) in try await broker.send("/account", headers: [("Cookie", cookie)]).status }
            // Idle: a request after 29 minutes keeps it; 31 minutes without one end it.
            broker.clock.advance(by: 20 * 60)
            #expect(try await status(busy) == 200)
            broker.clock.advance(by: 9 * 60)
            #expect(try await status(idle) == 200)
            broker.clock.advance(by: 20 * 60)
            #expect(try await status(busy) == 200)
            broker.clock.advance(by: 11 * 60)
            #expect(try await status(idle) == 401, "31 minutes without a request")
            #expect(try await status(busy) == 200)
            // Absolute: in use every 20 minutes, it still ends 12 hours after the sign-in.
            var statuses: [Int] = []
            for _ in 0..<33 {
                broker.clock.advance(by: 20 * 60)
                statuses.append(try await status(busy))
            }
            #expect(statuses.prefix(32).allSatisfy { $0 == 200 }, "\(statuses)")
            #expect(statuses.last == 401, "12 hours after the sign-in")
        }
    }

    @Test("A used or unknown sign-in, and an address elsewhere to go back to, lead to a page that says what to do")
    func hostileSignIns() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let unknown = try await broker.send("/portal/callback?code=abc&state=never-issued&iss=\(FormFields.encode(broker.baseURL))")
            #expect(unknown.status == 400)
            #expect(unknown.body.contains("utløpt eller allerede brukt"))
            #expect(unknown.body.contains(#"href="/portal/login""#))
            let (cookie, _) = try await Self.signIn(broker, back: "//evil.example/steal")
            #expect(!cookie.isEmpty)
            let start = try await broker.send("/portal/login?back=https://evil.example")
            let authorize = try await broker.send(try #require(start.location))
            #expect(authorize.status == 200, "the method choice page, no provider chosen")
            // The right state and sign-in cookie with a code that is not the one issued: the portal's own
            // page with a way to try again, and no session.
            let begun = try await broker.send("/portal/login?method=vipps&person=kari")
            let signInCookie = try Self.signInCookie(begun)
            let asked = try await broker.send(try #require(begun.location))
            let approved = try await broker.send(try #require(asked.location) + "&sandbox_user=kari&sandbox_action=approve")
            let returned = try await broker.send(try #require(approved.location))
            let callback = try #require(returned.location)
            let forged = try await broker.send(callback.replacing(/code=[^&]+/, with: "code=not-the-issued-code"), headers: [("Cookie", signInCookie)])
            #expect(forged.status == 400)
            #expect(forged.body.contains("Innloggingen mislyktes") && forged.body.contains(#"href="/portal/login""#))
            #expect(forged.setCookie("portvakt") == nil, "no session cookie")
            let switched = try await broker.send("/language?to=en&back=//evil.example")
            #expect(switched.location == "/")
            #expect(switched.setCookie("portvakt_lang")?.hasPrefix("portvakt_lang=en;") == true)
        }
    }

    @Test("Review II item 6: a callback made in Kari's browser does not sign Ingrid's browser in as Kari; item 9: signing in again renews the cookie and ends the browser's earlier portal session", arguments: TestDatabase.kinds)
    func loginCSRFAndCookieRotation(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let ingrid = try await Self.signIn(broker, person: "ingrid", method: "bankid").cookie
            // Kari's browser starts a sign-in and stops at the callback, which she sends to Ingrid.
            let start = try await broker.send("/portal/login?method=vipps&person=kari")
            let authorize = try await broker.send(try #require(start.location))
            let approved = try await broker.send(try #require(authorize.location) + "&sandbox_user=kari&sandbox_action=approve")
            let returned = try await broker.send(try #require(approved.location))
            let callback = try #require(returned.location)
            let forced = try await broker.send(callback, headers: [("Cookie", ingrid)])
            #expect(forced.status == 400)
            #expect(forced.setCookies.isEmpty, "no session cookie")
            let account = try await broker.send("/account", headers: [("Cookie", ingrid)])
            #expect(account.body.contains("Ingrid Hansen") && !account.body.contains("Kari Nordmann"), "still Ingrid's browser")
            // A sign-in cookie of another sign-in does not do either.
            let other = try Self.signInCookie(try await broker.send("/portal/login?method=vipps&person=kari"))
            #expect(try await broker.send(callback, headers: [("Cookie", other)]).status == 400)

            // The same browser signs in again: a new cookie, and the old one is worthless.
            let again = try await Self.signIn(broker, person: "ingrid", method: "bankid", existing: ingrid)
            #expect(again.cookie != ingrid)
            #expect(try await broker.send("/account", headers: [("Cookie", again.cookie)]).status == 200)
            #expect(try await broker.send("/account", headers: [("Cookie", ingrid)]).status == 401)
        }
    }
}
