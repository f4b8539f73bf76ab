import Crypto
import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktProtocol
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// Issue 22: the app's client with PAR (RFC 9126) and DPoP (RFC 9449) as the server requires by
/// default, over real HTTP, and what a thief holding a token (but not the key) sees.
@Suite("Sender-constrained tokens: DPoP and PAR")
struct SenderConstraintTests {
    /// The default policy: `no.portvakt.app` and `portvakt-cli` must use PAR and DPoP.
    static let requiredPolicy = ["PORTVAKT_LEGACY_CLIENTS": ""]

    /// A client's DPoP key, signing proofs with the server's latest nonce.
    final class ProofKey: @unchecked Sendable {
        let key = P256.Signing.PrivateKey()
        let broker: LiveBroker
        var nonce: String?

        init(_ broker: LiveBroker) { self.broker = broker }

        var thumbprint: String { DevicePublicKey(key.publicKey).thumbprint }

        func proof(_ method: String, _ path: String, accessToken: String? = nil, at date: Date? = nil, nonce: String? = nil) throws -> String {
            try DPoPProof(
                key: DevicePublicKey(key.publicKey), method: method, url: broker.baseURL + path, issuedAt: date ?? broker.clock.now,
                accessToken: accessToken, nonce: nonce ?? self.nonce
            ).compact(signedBy: key)
        }

        /// Sends with a fresh proof; on `use_dpop_nonce`, takes the nonce and tries once more.
        func send(_ path: String, method: String = "POST", form: [(String, String)]? = nil, accessToken: String? = nil) async throws -> LiveBroker.Reply {
            var reply = try await once(path, method: method, form: form, accessToken: accessToken)
            if reply.json["error"] as? String == "use_dpop_nonce" || reply.headers["www-authenticate"]?.contains("use_dpop_nonce") == true {
                reply = try await once(path, method: method, form: form, accessToken: accessToken)
            }
            return reply
        }

        func once(_ path: String, method: String, form: [(String, String)]?, accessToken: String?) async throws -> LiveBroker.Reply {
            var headers = [("DPoP", try proof(method, path, accessToken: accessToken))]
            if let accessToken { headers.append(("Authorization", "DPoP \(accessToken)")) }
            let reply = try await broker.send(path, method: .init(rawValue: method), form: form, headers: headers)
            if let fresh = reply.headers["dpop-nonce"] { nonce = fresh }
            return reply
        }
    }

    /// A PAR + DPoP login through the sandbox's Vipps: the pushed request, the browser's trip,
    /// the code redeemed with a proof. Returns the token response.
    static func login(_ broker: LiveBroker, key: ProofKey, user: String = "kari", login: AppLogin = AppLogin()) async throws -> [String: Any] {
        let code = try await code(broker, key: key, user: user, login: login)
        let reply = try await key.send("/oauth/token", form: [
            ("grant_type", "authorization_code"), ("client_id", login.clientID), ("code", code),
            ("redirect_uri", login.redirectURI), ("code_verifier", login.verifier),
        ])
        #expect(reply.status == 200, "\(reply.body)")
        return reply.json
    }

    static func code(_ broker: LiveBroker, key: ProofKey, user: String, login: AppLogin) async throws -> String {
        let requestURI = try await push(broker, key: key, login: login)
        let start = try await broker.send("/oauth/authorize?client_id=\(login.clientID)&request_uri=\(FormFields.encode(requestURI))")
        #expect(start.status == 303, "\(start.body.prefix(300))")
        let atProvider = try await broker.send(try #require(start.location) + "&sandbox_user=\(user)&sandbox_action=approve")
        let back = try await broker.send(try #require(atProvider.location))
        return try #require(AppCallback(location: back.location).code)
    }

    static func push(_ broker: LiveBroker, key: ProofKey?, login: AppLogin, extra: [(String, String)] = []) async throws -> String {
        let form = pushedForm(login) + extra
        let reply: LiveBroker.Reply
        if let key {
            reply = try await key.send("/oauth/par", form: form)
        } else {
            reply = try await broker.send("/oauth/par", method: .POST, form: form)
        }
        #expect(reply.status == 201, "\(reply.body)")
        #expect(reply.json["expires_in"] as? Int == 60)
        return try #require(reply.string("request_uri"))
    }

    static func pushedForm(_ login: AppLogin) -> [(String, String)] {
        [
            ("client_id", login.clientID), ("redirect_uri", login.redirectURI), ("response_type", "code"), ("scope", "openid"),
            ("code_challenge", PKCE.challenge(for: login.verifier)), ("code_challenge_method", "S256"), ("state", login.state),
            ("nonce", login.nonce), ("idp_hint", "vipps"),
        ]
    }

    @Test("Issue 22: PAR + DPoP login; the tokens are bound to the key (cnf.jkt, token_type DPoP) and discovery says so", arguments: TestDatabase.kinds)
    func boundLogin(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: Self.requiredPolicy) { broker in
            let discovery = try await broker.send("/.well-known/openid-configuration").json
            #expect(discovery["dpop_signing_alg_values_supported"] as? [String] == ["ES256"])
            #expect(discovery["pushed_authorization_request_endpoint"] as? String == broker.baseURL + "/oauth/par")
            #expect(discovery["authorization_response_iss_parameter_supported"] as? Bool == true)
            #expect(discovery["require_pushed_authorization_requests"] as? Bool == false)

            let key = ProofKey(broker)
            // The first proof has no nonce: the server asks for one.
            let first = try await key.once("/oauth/par", method: "POST", form: Self.pushedForm(AppLogin()), accessToken: nil)
            #expect(first.status == 400 && first.string("error") == "use_dpop_nonce")
            #expect(first.headers["dpop-nonce"] != nil)

            let tokens = try await Self.login(broker, key: key)
            #expect(tokens["token_type"] as? String == "DPoP")
            let access = try #require(tokens["access_token"] as? String)
            let cnf = try #require(LiveBroker.claims(access)["cnf"] as? [String: Any])
            #expect(cnf["jkt"] as? String == key.thumbprint)

            let me = try await key.send("/v1/me", method: "GET", accessToken: access)
            #expect(me.status == 200, "\(me.body)")
            let info = try await key.send("/oauth/userinfo", method: "GET", accessToken: access)
            #expect(info.status == 200, "\(info.body)")
        }
    }

    @Test("Issue 22: a bound access token is refused as Bearer, with another key's proof, without ath or with a wrong one, and a proof is accepted once", arguments: TestDatabase.kinds)
    func resourceRefusals(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: Self.requiredPolicy) { broker in
            let key = ProofKey(broker)
            let access = try #require(try await Self.login(broker, key: key)["access_token"] as? String)

            let asBearer = try await broker.send("/v1/me", headers: [("Authorization", "Bearer \(access)")])
            #expect(asBearer.status == 401)
            #expect(asBearer.headers["www-authenticate"] == #"DPoP error="invalid_token", algs="ES256""#)

            let thief = ProofKey(broker)
            thief.nonce = key.nonce
            let stolen = try await thief.send("/v1/me", method: "GET", accessToken: access)
            #expect(stolen.status == 401 && stolen.string("error") == "invalid_dpop_proof")

            let withoutATH = try await broker.send("/v1/me", headers: [("Authorization", "DPoP \(access)"), ("DPoP", try key.proof("GET", "/v1/me"))])
            #expect(withoutATH.status == 401 && withoutATH.string("error") == "invalid_dpop_proof", "\(withoutATH.body)")
            let wrongATH = try await broker.send("/v1/me", headers: [
                ("Authorization", "DPoP \(access)"), ("DPoP", try key.proof("GET", "/v1/me", accessToken: access + "x")),
            ])
            #expect(wrongATH.status == 401 && wrongATH.string("error") == "invalid_dpop_proof")

            let proof = try key.proof("GET", "/v1/me", accessToken: access)
            let once = try await broker.send("/v1/me", headers: [("Authorization", "DPoP \(access)"), ("DPoP", proof)])
            #expect(once.status == 200, "\(once.body)")
            let replayed = try await broker.send("/v1/me", headers: [("Authorization", "DPoP \(access)"), ("DPoP", proof)])
            #expect(replayed.status == 401 && replayed.string("error") == "invalid_dpop_proof")
            #expect(replayed.string("error_description")?.contains("used before") == true)

            for (method, path) in [("POST", "/v1/me"), ("GET", "/v1/activities")] {
                let wrongTarget = try await broker.send("/v1/me", headers: [
                    ("Authorization", "DPoP \(access)"), ("DPoP", try key.proof(method, path, accessToken: access)),
                ])
                #expect(wrongTarget.status == 401 && wrongTarget.string("error") == "invalid_dpop_proof", "\(method) \(path)")
            }
            for offset in [-120.0, 120.0] {
                let untimely = try await broker.send("/v1/me", headers: [
                    ("Authorization", "DPoP \(access)"), ("DPoP", try key.proof("GET", "/v1/me", accessToken: access, at: broker.clock.now + offset)),
                ])
                #expect(untimely.status == 401 && untimely.string("error") == "invalid_dpop_proof", "iat \(offset)")
            }
            let staleNonce = try await broker.send("/v1/me", headers: [
                ("Authorization", "DPoP \(access)"), ("DPoP", try key.proof("GET", "/v1/me", accessToken: access, nonce: "bm90LWEtbm9uY2U")),
            ])
            #expect(staleNonce.status == 401 && staleNonce.headers["www-authenticate"]?.hasPrefix(#"DPoP error="use_dpop_nonce""#) == true)
            #expect(staleNonce.headers["dpop-nonce"] != nil)
        }
    }

    @Test("Issue 22: a refresh token with another key, or none, is refused and the session lives on for the right key; a used refresh with the key rotates", arguments: TestDatabase.kinds)
    func refreshBinding(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: Self.requiredPolicy) { broker in
            let key = ProofKey(broker)
            let tokens = try await Self.login(broker, key: key)
            let refresh = try #require(tokens["refresh_token"] as? String)
            let access = try #require(tokens["access_token"] as? String)
            let sessionID = try #require(LiveBroker.claims(access)["sid"] as? String)
            let form = [("grant_type", "refresh_token"), ("client_id", "no.portvakt.app"), ("refresh_token", refresh)]

            let thief = ProofKey(broker)
            let stolen = try await thief.send("/oauth/token", form: form)
            #expect(stolen.status == 400 && stolen.string("error") == "invalid_grant", "\(stolen.body)")
            let bare = try await broker.token(form)
            #expect(bare.status == 400 && bare.string("error") == "invalid_dpop_proof")
            let revoke = try await thief.send("/oauth/revoke", form: [("client_id", "no.portvakt.app"), ("token", refresh)])
            #expect(revoke.status == 400 && revoke.string("error") == "invalid_dpop_proof")

            let rotated = try await key.send("/oauth/token", form: form)
            #expect(rotated.status == 200, "\(rotated.body)")
            #expect(rotated.string("token_type") == "DPoP")
            // A refresh records its proof in the rotation's transaction: the same proof twice is a replay.
            let next = try #require(rotated.string("refresh_token"))
            let proof = try key.proof("POST", "/oauth/token")
            let nextForm = [("grant_type", "refresh_token"), ("client_id", "no.portvakt.app"), ("refresh_token", next)]
            let firstUse = try await broker.send("/oauth/token", method: .POST, form: nextForm, headers: [("DPoP", proof)])
            #expect(firstUse.status == 200, "\(firstUse.body)")
            let successor = try #require(firstUse.string("refresh_token"))
            let replay = try await broker.send("/oauth/token", method: .POST, form: [
                ("grant_type", "refresh_token"), ("client_id", "no.portvakt.app"), ("refresh_token", successor),
            ], headers: [("DPoP", proof)])
            #expect(replay.status == 400 && replay.string("error") == "invalid_dpop_proof", "\(replay.body)")
            #expect(try await key.send("/oauth/token", form: [
                ("grant_type", "refresh_token"), ("client_id", "no.portvakt.app"), ("refresh_token", successor),
            ]).status == 200, "the replay changed nothing: the successor still rotates")
            let events = try await broker.withStore { store in try await store.auditEvents(subjectType: "session", subjectID: sessionID) }
            #expect(events.filter { $0.action == "session.refresh_wrong_key" }.count == 1, "the thief's try; a request without a proof is refused before the token is looked at")
        }
    }

    @Test("Issue 22: an unlock with a proof binds its session; the same proof again is a replay that takes nothing, not even the challenge", arguments: TestDatabase.kinds)
    func unlockBinding(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let login = try await broker.bankIDLogin("ola")
            let device = try await broker.registerDevice(TestDevice(), token: login.access)
            let key = ProofKey(broker)
            func grant(_ assertion: String) -> [(String, String)] {
                [("grant_type", DeviceUnlock.grantType), ("client_id", "no.portvakt.app"), ("assertion", assertion)]
            }
            let first = try device.assertion(
                challenge: try await broker.challengeValue(device.id, purpose: .unlock), purpose: .unlock, audience: broker.baseURL, issuedAt: broker.clock.now
            )
            let unlocked = try await key.send("/oauth/token", form: grant(first))
            #expect(unlocked.status == 200, "\(unlocked.body)")
            #expect(unlocked.string("token_type") == "DPoP")
            let access = try #require(unlocked.string("access_token"))
            #expect((LiveBroker.claims(access)["cnf"] as? [String: String])?["jkt"] == key.thumbprint)

            let proof = try key.proof("POST", "/oauth/token")
            let second = try device.assertion(
                challenge: try await broker.challengeValue(device.id, purpose: .unlock), purpose: .unlock, audience: broker.baseURL, issuedAt: broker.clock.now
            )
            let once = try await broker.send("/oauth/token", method: .POST, form: grant(second), headers: [("DPoP", proof)])
            #expect(once.status == 200, "\(once.body)")
            let third = try device.assertion(
                challenge: try await broker.challengeValue(device.id, purpose: .unlock), purpose: .unlock, audience: broker.baseURL, issuedAt: broker.clock.now
            )
            let replay = try await broker.send("/oauth/token", method: .POST, form: grant(third), headers: [("DPoP", proof)])
            #expect(replay.status == 400 && replay.string("error") == "invalid_dpop_proof", "\(replay.body)")
            let afterwards = try await key.send("/oauth/token", form: grant(third))
            #expect(afterwards.status == 200, "the replay took nothing: the challenge still answers \(afterwards.body)")
        }
    }

    @Test("Issue 22: request_uri once and for 60 s; the app may not authorize without PAR; a code bound by dpop_jkt needs that key", arguments: TestDatabase.kinds)
    func pushedRequests(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: Self.requiredPolicy) { broker in
            let key = ProofKey(broker)
            let login = AppLogin()
            let requestURI = try await Self.push(broker, key: key, login: login)
            let authorize = "/oauth/authorize?client_id=no.portvakt.app&request_uri=\(FormFields.encode(requestURI))"
            #expect(try await broker.send(authorize).status == 303)
            let again = try await broker.send(authorize)
            #expect(again.status == 400 && again.body.contains("request_uri"))

            let late = try await Self.push(broker, key: key, login: AppLogin())
            broker.clock.advance(by: 61)
            key.nonce = nil
            #expect(try await broker.send("/oauth/authorize?client_id=no.portvakt.app&request_uri=\(FormFields.encode(late))").status == 400)

            let front = try await broker.send(AppLogin().authorizeURL(method: "vipps"))
            #expect(front.status == 303)
            let refused = AppCallback(location: front.location)
            #expect(refused.error == "invalid_request" && refused.fields["error_description"]?.contains("PAR") == true)

            let pushedByApp = try await Self.push(broker, key: key, login: AppLogin())
            let other = try await broker.send("/oauth/authorize?client_id=portvakt-cli&request_uri=\(FormFields.encode(pushedByApp))")
            #expect(other.status == 400, "a request_uri is the pushing client's only")
            // Review II item 9: the wrong client's attempt did not burn it.
            #expect(try await broker.send("/oauth/authorize?client_id=no.portvakt.app&request_uri=\(FormFields.encode(pushedByApp))").status == 303)

            // PAR without a proof but with dpop_jkt: the code is bound to that key.
            let bound = AppLogin()
            let uri = try await Self.push(broker, key: nil, login: bound, extra: [("dpop_jkt", key.thumbprint)])
            let start = try await broker.send("/oauth/authorize?client_id=no.portvakt.app&request_uri=\(FormFields.encode(uri))")
            let atProvider = try await broker.send(try #require(start.location) + "&sandbox_user=kari&sandbox_action=approve")
            let back = try await broker.send(try #require(atProvider.location))
            let code = try #require(AppCallback(location: back.location).code)
            let thief = ProofKey(broker)
            let redeemed = try await thief.send("/oauth/token", form: [
                ("grant_type", "authorization_code"), ("client_id", "no.portvakt.app"), ("code", code),
                ("redirect_uri", bound.redirectURI), ("code_verifier", bound.verifier),
            ])
            #expect(redeemed.status == 400 && redeemed.string("error") == "invalid_grant", "\(redeemed.body)")

            let badJKT = try await broker.send("/oauth/par", method: .POST, form: Self.pushedForm(AppLogin()) + [("dpop_jkt", "short")])
            #expect(badJKT.status == 400 && badJKT.string("error") == "invalid_request")
            let badClient = try await broker.send("/oauth/par", method: .POST, form: [("client_id", "nobody")])
            #expect(badClient.status == 401 && badClient.string("error") == "invalid_client")
        }
    }

    @Test("Issue 22: the method page of a pushed request links on with the sealed request; PORTVAKT_LEGACY_CLIENTS lets an old app skip both, audited", arguments: TestDatabase.kinds)
    func continuationsAndLegacy(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: Self.requiredPolicy) { broker in
            let key = ProofKey(broker)
            var form = Self.pushedForm(AppLogin())
            form.removeAll { $0.0 == "idp_hint" }
            let pushed = try await key.send("/oauth/par", form: form)
            let uri = try #require(pushed.string("request_uri"))
            let methods = try await broker.send("/oauth/authorize?client_id=no.portvakt.app&request_uri=\(FormFields.encode(uri))")
            #expect(methods.status == 200)
            let vipps = try #require(methods.body.firstMatch(of: /href="([^"]*idp_hint=vipps[^"]*)"/)).1
            let link = String(vipps).replacingOccurrences(of: "&amp;", with: "&")
            #expect(link.contains("continuation=") && !link.contains("code_challenge"))
            let start = try await broker.send(link)
            #expect(start.status == 303 && start.location?.contains("/sandbox/") == true)
            let forged = try await broker.send(link.replacingOccurrences(of: "continuation=", with: "continuation=x"))
            #expect(forged.status == 400)
        }
        try await LiveBroker.run(kind, settings: ["PORTVAKT_LEGACY_CLIENTS": "no.portvakt.app"]) { broker in
            let tokens = try await broker.tokens(provider: "vipps", user: "kari")
            #expect(tokens["token_type"] as? String == "Bearer")
            let events = try await broker.withStore { store in try await store.auditEvents(subjectType: "client", subjectID: "no.portvakt.app") }
            #expect(Set(events.compactMap { $0.details["skipped"] }) == ["par", "dpop"])
        }
    }

    /// The page's link that chooses `hint`, as a browser would follow it.
    static func link(in page: String, hint: String) -> String? {
        guard let hinted = page.range(of: "idp_hint=\(hint)"),
              let start = page[..<hinted.lowerBound].range(of: "href=\"", options: .backwards),
              let end = page[hinted.upperBound...].firstIndex(of: "\"")
        else { return nil }
        return String(page[start.upperBound..<end]).replacingOccurrences(of: "&amp;", with: "&")
    }

    @Test("Review IV item 5: a method link of a pushed request starts one login; the next page's own links still lead back to the methods and on", arguments: TestDatabase.kinds)
    func methodLinksAreSingleUse(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: Self.requiredPolicy) { broker in
            let key = ProofKey(broker)
            var form = Self.pushedForm(AppLogin())
            form.removeAll { $0.0 == "idp_hint" }
            let uri = try #require(try await key.send("/oauth/par", form: form).string("request_uri"))
            let methods = try await broker.send("/oauth/authorize?client_id=no.portvakt.app&request_uri=\(FormFields.encode(uri))")
            let link = { (page: String, hint: String) throws -> String in try #require(Self.link(in: page, hint: hint)) }
            let password = try link(methods.body, "password")
            #expect(try await broker.send(try link(methods.body, "vipps")).status == 303, "the method page's first step starts")
            let reused = try await broker.send(password)
            #expect(reused.status == 400 && reused.body.contains("already used"), "a second step on the same link starts nothing: \(reused.status)")

            // A fresh request: its password page leads back to the methods, and from there to BankID.
            let again = try #require(try await key.send("/oauth/par", form: form).string("request_uri"))
            let page = try await broker.send("/oauth/authorize?client_id=no.portvakt.app&request_uri=\(FormFields.encode(again))")
            let passwordPage = try await broker.send(try link(page.body, "password"))
            #expect(passwordPage.status == 200)
            let back = String(try #require(passwordPage.body.firstMatch(of: /<p><a href="([^"]*)">/)).1).replacingOccurrences(of: "&amp;", with: "&")
            let methodsAgain = try await broker.send(back)
            #expect(methodsAgain.status == 200 && methodsAgain.body.contains("idp_hint=bankid"), "back to the methods works")
            #expect(try await broker.send(back).status == 200, "the method page itself may be shown again")
            let bankID = try await broker.send(try link(methodsAgain.body, "bankid"))
            #expect(bankID.status == 303 && bankID.location?.contains("/sandbox/") == true)
            #expect(try await broker.send(try link(page.body, "bankid")).status == 400, "the first page's links are spent")

            // Review IV, L2: a password login from a pushed request; once it is over, its page's "back" link starts nothing.
            _ = try await PortvaktApplication.setPassword(
                configuration: broker.configuration, logger: TestDatabase.logger, email: "kari@sandbox.portvakt.test", password: PasswordLoginTests.password
            )
            let third = try #require(try await key.send("/oauth/par", form: form).string("request_uri"))
            let thirdPage = try await broker.send("/oauth/authorize?client_id=no.portvakt.app&request_uri=\(FormFields.encode(third))")
            let thirdPassword = try await broker.send(try link(thirdPage.body, "password"))
            let thirdBack = String(try #require(thirdPassword.body.firstMatch(of: /<p><a href="([^"]*)">/)).1).replacingOccurrences(of: "&amp;", with: "&")
            let flow = String(try #require(thirdPassword.body.firstMatch(of: /name="flow" value="([^"]+)"/)).1)
            let signedIn = try await PasswordLoginTests.submit(flow, email: "kari@sandbox.portvakt.test", password: PasswordLoginTests.password, at: broker)
            #expect(signedIn.status == 303 && AppCallback(location: signedIn.location).code != nil, "\(signedIn.status)")
            #expect(try await broker.send(thirdBack).status == 400, "the login over, its last link is spent")
        }
    }

    @Test("Issue 46 item 2: RFC 7009 revocation of a DPoP-bound refresh token without a proof ends the session, as a standard client signs out; another key's proof is refused", arguments: TestDatabase.kinds)
    func revocationWithoutProof(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: Self.requiredPolicy) { broker in
            let key = ProofKey(broker)
            let tokens = try await Self.login(broker, key: key)
            let refresh = try #require(tokens["refresh_token"] as? String)
            let access = try #require(tokens["access_token"] as? String)
            let revokeForm = [("client_id", "no.portvakt.app"), ("token", refresh)]
            let otherKey = try await ProofKey(broker).send("/oauth/revoke", form: revokeForm)
            #expect(otherKey.status == 400 && otherKey.string("error") == "invalid_dpop_proof", "\(otherKey.body)")
            #expect(try await key.send("/v1/me", method: "GET", accessToken: access).status == 200, "another key revokes nothing")
            // A refresh token already rotated (a backup's, a log's) revokes nothing without the key.
            let rotated = try await key.send("/oauth/token", form: [("grant_type", "refresh_token"), ("client_id", "no.portvakt.app"), ("refresh_token", refresh)])
            let current = try #require(rotated.string("refresh_token"), "\(rotated.body)")
            let old = try await broker.send("/oauth/revoke", method: .POST, form: revokeForm)
            #expect(old.status == 400 && old.string("error") == "invalid_dpop_proof", "\(old.body)")
            #expect(try await key.send("/v1/me", method: "GET", accessToken: access).status == 200)
            let bare = try await broker.send("/oauth/revoke", method: .POST, form: [("client_id", "no.portvakt.app"), ("token", current)])
            #expect(bare.status == 200, "\(bare.body)")
            #expect(try await key.send("/v1/me", method: "GET", accessToken: access).status == 401, "the session ended")
            let refreshed = try await key.send("/oauth/token", form: [("grant_type", "refresh_token"), ("client_id", "no.portvakt.app"), ("refresh_token", current)])
            #expect(refreshed.status == 400 && refreshed.string("error") == "invalid_grant")
        }
    }

    @Test("Review II item 9: end-session with only the ID token leaves a DPoP-bound session alone; with a proof by its key it ends it", arguments: TestDatabase.kinds)
    func endSessionNeedsTheKey(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: Self.requiredPolicy) { broker in
            let key = ProofKey(broker)
            let tokens = try await Self.login(broker, key: key)
            let access = try #require(tokens["access_token"] as? String)
            let hint = try #require(tokens["id_token"] as? String)
            let path = "/oauth/end-session?id_token_hint=\(FormFields.encode(hint))"
            let stolen = try await broker.send(path)
            #expect(stolen.status == 400 && stolen.body.contains("bound to the app"), "\(stolen.status) \(stolen.body.prefix(300))")
            #expect(try await key.send("/v1/me", method: "GET", accessToken: access).status == 200, "the session lives on")
            let ended = try await key.send(path, method: "GET")
            #expect(ended.status == 200, "\(ended.body.prefix(200))")
            #expect(try await key.send("/v1/me", method: "GET", accessToken: access).status == 401, "ended with the proof")
        }
    }

    @Test("Review II item 9: every answer says nosniff and never in a frame; Strict-Transport-Security only on an https deployment")
    func securityHeaders() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            for path in ["/oauth/authorize?client_id=nobody", "/health/live", "/no-such-page"] {
                let reply = try await broker.send(path)
                #expect(reply.headers["x-content-type-options"] == "nosniff", "\(path)")
                #expect(reply.headers["x-frame-options"] == "DENY", "\(path)")
                #expect(reply.headers["strict-transport-security"] == nil, "plain http in development: \(path)")
            }
        }
    }
}
