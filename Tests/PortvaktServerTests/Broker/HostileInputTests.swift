import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// What an attacker or a broken provider tries. Every case ends in a 4xx (or an error redirect
/// to the app, for what arrives from the provider) and no usable session.
@Suite("Hostile input to the broker")
struct HostileInputTests {
    /// Sessions that got tokens: none may appear from a hostile case.
    static func sessionsWithTokens(_ broker: LiveBroker) async throws -> Int {
        try await broker.withStore { store in
            try await store.driver.withSession { db in
                try await db.select().column("id").from("refresh_tokens").all().count
            }
        }
    }

    @Test("PKCE: missing, plain-style (verifier = challenge) and wrong verifiers are invalid_grant, and burn the code", arguments: TestDatabase.kinds)
    func pkce(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            for verifier in ["", "CHALLENGE", PKCE.makeVerifier()] {
                let login = AppLogin()
                let (app, _) = try await broker.providerLogin(login, provider: "vipps", user: "kari")
                let code = try #require(app.code)
                var form = [("grant_type", "authorization_code"), ("client_id", login.clientID), ("code", code), ("redirect_uri", login.redirectURI)]
                if !verifier.isEmpty { form.append(("code_verifier", verifier == "CHALLENGE" ? PKCE.challenge(for: login.verifier) : verifier)) }
                let reply = try await broker.token(form)
                #expect(reply.status == 400)
                #expect(reply.string("error") == "invalid_grant")
                let retry = try await login.redeem(code, at: broker)
                #expect(retry.status == 400, "the code is gone after a failed attempt")
            }
            // An authorization request with plain or no PKCE is refused before anyone logs in.
            for method in ["plain", ""] {
                let login = AppLogin()
                let url = login.authorizeURL(method: "vipps").replacingOccurrences(of: "code_challenge_method=S256", with: "code_challenge_method=\(method)")
                let reply = try await broker.send(url)
                let app = AppCallback(location: reply.location)
                #expect(reply.status == 303)
                #expect(app.error == "invalid_request")
                #expect(reply.location?.contains("/sandbox/") == false)
            }
            let withTokens = try await Self.sessionsWithTokens(broker)
            #expect(withTokens == 0)
        }
    }

    @Test("Redirect URIs must match exactly: near misses get a 400 page and are never followed", arguments: [
        "no.portvakt.app:/oauth/callback/", "no.portvakt.app:/oauth/callbackx", "no.portvakt.app:/oauth", "No.Portvakt.App:/oauth/callback",
        "no.portvakt.app:/oauth/Callback", "no.portvakt.app:/oauth/callback?x=1", "no.portvakt.app:/oauth/callback#f",
        "no.portvakt.app:/oauth/%63allback", "no.portvakt.app:/oauth/callback%00", "https://evil.example/oauth/callback",
        "no.portvakt.app.evil:/oauth/callback", "http://localhost:8000/callback",
    ])
    func redirectNearMisses(uri: String) async throws {
        try await LiveBroker.run(.sqlite) { broker in
            var login = AppLogin()
            login.redirectURI = uri
            let reply = try await broker.send(login.authorizeURL(method: "vipps"))
            #expect(reply.status == 400)
            #expect(reply.location == nil)
            #expect(!reply.body.contains("evil.example"), "the bad URI is not echoed as a link")
        }
    }

    @Test("The CLI's loopback redirect takes any port (RFC 8252 §7.3) but nothing else")
    func loopbackRedirects() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            for (uri, allowed) in [
                ("http://127.0.0.1:49152/callback", true), ("http://[::1]:8123/callback", true),
                ("http://127.0.0.1:49152/callback/x", false), ("https://127.0.0.1:49152/callback", false),
                ("http://localhost:49152/callback", false), ("http://127.0.0.1.evil.example:80/callback", false),
                ("http://user@127.0.0.1:49152/callback", false), ("http://127.0.0.1/callback", false),
            ] {
                var login = AppLogin()
                login.clientID = "portvakt-cli"
                login.redirectURI = uri
                let reply = try await broker.send(login.authorizeURL(method: "password"))
                #expect((reply.status == 200) == allowed, "\(uri)")
            }
        }
    }

    @Test("A replayed state, a replayed code and a code redeemed by another client are refused", arguments: TestDatabase.kinds)
    func replays(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let login = AppLogin()
            let (app, callbackURL) = try await broker.providerLogin(login, provider: "bankid", user: "ingrid")
            let callback = try #require(callbackURL)
            let replayedCallback = try await broker.send(callback)
            #expect(replayedCallback.status == 400)
            #expect(replayedCallback.location == nil)

            let code = try #require(app.code)
            let stolen = try await login.redeem(code, at: broker, clientID: "portvakt-cli")
            #expect(stolen.status == 400)
            #expect(stolen.string("error") == "invalid_grant")
            let afterTheft = try await login.redeem(code, at: broker)
            #expect(afterTheft.status == 400, "a code tried by another client is gone")

            let second = AppLogin()
            let (secondApp, _) = try await broker.providerLogin(second, provider: "bankid", user: "ingrid")
            let secondCode = try #require(secondApp.code)
            let firstRedemption = try await second.redeem(secondCode, at: broker)
            #expect(firstRedemption.status == 200)
            let replayed = try await second.redeem(secondCode, at: broker)
            #expect(replayed.status == 400)
            #expect(replayed.string("error") == "invalid_grant")
            // Review III item 4: the replay ends the session the code made; its tokens stop working.
            let refreshToken = try #require(firstRedemption.string("refresh_token"))
            #expect(try await broker.refresh(refreshToken).status == 400, "the first redeemer's session ended")
            let userinfo = try await broker.send("/oauth/userinfo", headers: [("Authorization", "Bearer " + (try #require(firstRedemption.string("access_token"))))])
            #expect(userinfo.status == 401)
        }
    }

    @Test("Forged or broken ID tokens from the provider: login_failed, no code, no session", arguments: [
        "alg_none", "hs256_public_key", "wrong_issuer", "wrong_audience", "expired_id_token", "wrong_nonce",
        "unknown_kid", "embedded_jwk", "bad_signature",
    ])
    func forgedIDTokens(fault: String) async throws {
        try await LiveBroker.run(.sqlite) { broker in
            for provider in ["vipps", "bankid"] {
                try await broker.setFaults([fault], for: provider)
                let (app, _) = try await broker.providerLogin(AppLogin(), provider: provider, user: "ingrid")
                #expect(app.code == nil, "\(provider) \(fault)")
                #expect(app.messageID == "login_failed", "\(provider) \(fault)")
            }
            let sessions = try await broker.withStore { store in
                try await store.driver.withSession { db in try await db.select().column("id").from("sessions").all().count }
            }
            #expect(sessions == 0)
            let failures = try await broker.withStore { store in
                try await store.driver.withSession { db in
                    try await db.select().column("id").from("audit_events").where("action", .equal, "login.failed").all().count
                }
            }
            #expect(failures == 2)
        }
    }

    @Test("Mix-up: a Vipps answer delivered to the BankID callback is refused with a 400", arguments: TestDatabase.kinds)
    func mixUp(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let login = AppLogin()
            let start = try await broker.send(login.authorizeURL(method: "vipps"))
            let providerURL = try #require(start.location)
            let atVipps = try await broker.send(providerURL + "&sandbox_user=kari&sandbox_action=approve")
            let vippsCallback = try #require(atVipps.location)
            let mixedUp = vippsCallback.replacingOccurrences(of: "/oauth/callback/vipps", with: "/oauth/callback/bankid")
            let reply = try await broker.send(mixedUp)
            #expect(reply.status == 400)
            #expect(reply.location == nil)
            let withTokens = try await Self.sessionsWithTokens(broker)
            #expect(withTokens == 0)
        }
    }

    @Test("Malformed requests get 4xx with an OAuth error, never a 500")
    func malformed() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let cases: [(String, [(String, String)])] = [
                ("no grant", [("client_id", "no.portvakt.app")]),
                ("password grant", [("client_id", "no.portvakt.app"), ("grant_type", "password"), ("username", "a"), ("password", "b")]),
                ("unknown client", [("client_id", "evil"), ("grant_type", "refresh_token"), ("refresh_token", "x")]),
                ("no code", [("client_id", "no.portvakt.app"), ("grant_type", "authorization_code")]),
                ("garbage refresh", [("client_id", "no.portvakt.app"), ("grant_type", "refresh_token"), ("refresh_token", String(repeating: "A", count: 5000))]),
            ]
            for (name, form) in cases {
                let reply = try await broker.token(form)
                #expect((400...401).contains(reply.status), "\(name): \(reply.status)")
                #expect(reply.string("error") != nil, "\(name)")
            }
            let repeated = try await broker.send("/oauth/token", method: .POST, form: [("client_id", "no.portvakt.app"), ("client_id", "portvakt-cli")])
            #expect(repeated.status == 400)
            let json = try await broker.send("/oauth/token", method: .POST, headers: [("Content-Type", "application/json")])
            #expect(json.status == 415)
            for path in ["/oauth/authorize", "/oauth/authorize?client_id=%ZZ", "/oauth/callback/vipps", "/oauth/callback/bankid?state=x&code=y",
                         "/oauth/end-session?id_token_hint=abc", "/oauth/userinfo"] {
                let reply = try await broker.send(path)
                #expect((400...403).contains(reply.status), "\(path): \(reply.status)")  // 403: a state without its browser's cookie
            }
            let forged = try await broker.send("/oauth/userinfo", headers: [("Authorization", "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.")])
            #expect(forged.status == 401)
        }
    }
}
