import Crypto
import Foundation
import Hummingbird
import JWTKit
import NIOCore
import PortvaktCore
import PortvaktDomain
import PortvaktProtocol
import PortvaktStorage
import PortvaktTestSupport
import ServiceLifecycle
import Synchronization
import Testing
@testable import PortvaktServer

/// Issue 46 items 1 and 2: a web application registered in `PORTVAKT_CLIENTS_FILE` signs people
/// in as a confidential client: code + PKCE, its secret (Basic or in the form) or a signed
/// assertion (private_key_jwt), an RS256 ID token checked against the JWKS, introspection,
/// refresh and revocation; over real HTTP on both databases.
@Suite("Confidential clients")
struct ConfidentialClientTests {
    static let basicSecret = "basic-secret-0123456789-abcdefghijkl"
    static let postSecret = "post-secret-0123456789-abcdefghijklm"
    static let callback = "https://portal.nhf.example/callback"
    static let assertionKey = ES256PrivateKey()

    /// The clients file: three web applications and a public app that binds its tokens.
    static func settings() throws -> [String: String] {
        let point = assertionKey.parameters!
        let jwks = #"{"keys": [{"kty": "EC", "crv": "P-256", "kid": "k1", "x": "\#(point.x)", "y": "\#(point.y)"}]}"#
        let file = """
        {"clients": [
          {"client_id": "web-basic", "first_party": true, "redirect_uris": ["\(callback)"], "client_secret": "\(basicSecret)"},
          {"client_id": "web-post", "first_party": true, "redirect_uris": ["\(callback)"], "client_secret": "\(postSecret)", "token_endpoint_auth_method": "client_secret_post"},
          {"client_id": "web-jwt", "first_party": true, "redirect_uris": ["\(callback)"], "token_endpoint_auth_method": "private_key_jwt", "jwks": \(jwks)},
          {"client_id": "no.nhf.app", "first_party": true, "token_endpoint_auth_method": "none", "redirect_uris": ["no.nhf.app:/oauth/callback"]}
        ]}
        """
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("clients-\(UUID().uuidString).json").path
        try file.write(toFile: path, atomically: true, encoding: .utf8)
        return ["PORTVAKT_CLIENTS_FILE": path, "PORTVAKT_LEGACY_CLIENTS": ""]
    }

    static func basic(_ id: String, _ secret: String) -> (String, String) {
        ("Authorization", "Basic " + Data("\(FormFields.encode(id)):\(FormFields.encode(secret))".utf8).base64EncodedString())
    }

    /// A client assertion (RFC 7523) by `web-jwt`'s key.
    static func assertion(_ broker: LiveBroker, audience: [String]? = nil, jti: String = randomToken(), lifetime: Int = 60) async throws -> String {
        let keys = await JWTKeyCollection().add(ecdsa: assertionKey, kid: "k1")
        let now = Int(Date().timeIntervalSince1970)
        let aud = AudienceClaim(value: audience ?? [broker.baseURL])
        return try await keys.sign(Assertion(iss: "web-jwt", sub: "web-jwt", aud: aud, jti: jti, exp: now + lifetime), kid: "k1")
    }

    struct Assertion: JWTPayload {
        let iss, sub: String
        let aud: AudienceClaim
        let jti: String
        let exp: Int
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The browser's trip for `client` to the code.
    static func code(_ broker: LiveBroker, client: String, redirect: String = callback, user: String = "kari") async throws -> (AppLogin, String) {
        var login = AppLogin()
        login.clientID = client
        login.redirectURI = redirect
        let (app, _) = try await broker.providerLogin(login, provider: "vipps", user: user)
        return (login, try #require(app.code, "no code: \(app.fields)"))
    }

    @Test("Issue 46: web-basic signs Kari in with code + PKCE and its secret in Basic; the ID token is RS256 and verifies with the published JWKS; it introspects, refreshes and revokes; a wrong or missing secret is 401 invalid_client", arguments: TestDatabase.kinds)
    func basicClient(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: try Self.settings()) { broker in
            let discovery = try await broker.send("/.well-known/openid-configuration").json
            #expect(discovery["token_endpoint_auth_methods_supported"] as? [String] == ["client_secret_basic", "client_secret_post", "none", "private_key_jwt"])
            #expect((discovery["id_token_signing_alg_values_supported"] as? [String])?.first == "RS256")
            #expect(discovery["introspection_endpoint"] as? String == broker.baseURL + "/oauth/introspect")

            let (login, code) = try await Self.code(broker, client: "web-basic")
            let redeem = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.callback), ("code_verifier", login.verifier)]
            let wrong = try await broker.send("/oauth/token", method: .POST, form: redeem, headers: [Self.basic("web-basic", "wrong-secret-0123456789-abcdefghijkl")])
            #expect(wrong.status == 401 && wrong.string("error") == "invalid_client")
            #expect(wrong.headers["www-authenticate"]?.hasPrefix("Basic") == true)
            let none = try await broker.send("/oauth/token", method: .POST, form: redeem + [("client_id", "web-basic")])
            #expect(none.status == 401 && none.string("error") == "invalid_client")
            let inForm = try await broker.send("/oauth/token", method: .POST, form: redeem + [("client_id", "web-basic"), ("client_secret", Self.basicSecret)])
            #expect(inForm.status == 401, "web-basic registered Basic; the secret in the form is refused")
            // The refusals were checked before the code: it still redeems.
            let tokens = try await broker.send("/oauth/token", method: .POST, form: redeem, headers: [Self.basic("web-basic", Self.basicSecret)])
            #expect(tokens.status == 200, "\(tokens.body)")
            let idToken = try #require(tokens.string("id_token"))
            #expect(JOSEHeader(compactJWS: idToken)?.alg == "RS256")
            let jwks = try await broker.send("/.well-known/jwks.json").body
            let verified = try await JWTKeyCollection().add(jwksJSON: jwks).verify(idToken, as: IDTokenClaims.self)
            #expect(verified.aud == "web-basic" && verified.nonce == login.nonce && verified.iss == broker.baseURL)
            #expect(tokens.string("token_type") == "Bearer")

            let access = try #require(tokens.string("access_token"))
            let refresh = try #require(tokens.string("refresh_token"))
            // Review of issue 46: a relying party's token opens userinfo, never Portvakt's own API.
            let userinfo = try await broker.send("/oauth/userinfo", headers: [("Authorization", "Bearer \(access)")])
            #expect(userinfo.status == 200 && userinfo.string("sub") == verified.sub)
            for path in ["/v1/me", "/v1/contacts", "/v1/devices"] {
                let api = try await broker.send(path, headers: [("Authorization", "Bearer \(access)")])
                #expect(api.status == 403 && api.string("error") == "insufficient_scope", "\(path): \(api.status) \(api.body)")
            }
            let enrol = try await broker.postJSON("/v1/devices", ["name": "x"])
            #expect(enrol.status == 401)
            let unlock = try await broker.send("/oauth/token", method: .POST, form: [("grant_type", DeviceUnlock.grantType), ("assertion", "x.y.z")], headers: [Self.basic("web-basic", Self.basicSecret)])
            #expect(unlock.status == 400 && unlock.string("error") == "unauthorized_client")
            let introspected = try await broker.send("/oauth/introspect", method: .POST, form: [("token", access)], headers: [Self.basic("web-basic", Self.basicSecret)]).json
            #expect(introspected["active"] as? Bool == true && introspected["client_id"] as? String == "web-basic")
            #expect(introspected["sub"] as? String == verified.sub && introspected["token_type"] as? String == "Bearer" && introspected["cnf"] == nil)
            let ofRefresh = try await broker.send("/oauth/introspect", method: .POST, form: [("token", refresh)], headers: [Self.basic("web-basic", Self.basicSecret)]).json
            #expect(ofRefresh["active"] as? Bool == true && ofRefresh["token_type"] as? String == "refresh_token")
            // Another confidential client learns nothing of web-basic's token; a public client may not ask.
            let other = try await broker.send("/oauth/introspect", method: .POST, form: [("token", access), ("client_id", "web-post"), ("client_secret", Self.postSecret)]).json
            #expect(other.keys.sorted() == ["active"] && other["active"] as? Bool == false)
            let publicClient = try await broker.send("/oauth/introspect", method: .POST, form: [("token", access), ("client_id", "no.nhf.app")])
            #expect(publicClient.status == 401 && publicClient.string("error") == "invalid_client")

            let refreshed = try await broker.send("/oauth/token", method: .POST, form: [("grant_type", "refresh_token"), ("refresh_token", refresh)], headers: [Self.basic("web-basic", Self.basicSecret)])
            #expect(refreshed.status == 200)
            let successor = try #require(refreshed.string("refresh_token"))
            let oldRefresh = try await broker.send("/oauth/introspect", method: .POST, form: [("token", refresh)], headers: [Self.basic("web-basic", Self.basicSecret)]).json
            #expect(oldRefresh["active"] as? Bool == false, "a rotated refresh token is no longer active")

            let revoked = try await broker.send("/oauth/revoke", method: .POST, form: [("token", successor)], headers: [Self.basic("web-basic", Self.basicSecret)])
            #expect(revoked.status == 200)
            let after = try await broker.send("/oauth/introspect", method: .POST, form: [("token", access)], headers: [Self.basic("web-basic", Self.basicSecret)]).json
            #expect(after["active"] as? Bool == false, "the session ended, so its access token is inactive")
            let revokeUnauthenticated = try await broker.send("/oauth/revoke", method: .POST, form: [("token", successor), ("client_id", "web-basic")])
            #expect(revokeUnauthenticated.status == 401)
            #expect(!broker.logs.text.contains(Self.basicSecret) && !broker.logs.text.contains(access) && !broker.logs.text.contains(refresh))
        }
    }

    @Test("Issue 46: client_secret_post and private_key_jwt clients redeem; an assertion is single-use, and one for another or a second audience, expired, long-lived or signed by another key is 401 invalid_client, saying only that", arguments: TestDatabase.kinds)
    func postAndJWTClients(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: try Self.settings()) { broker in
            let (postLogin, postCode) = try await Self.code(broker, client: "web-post")
            let post = try await broker.send("/oauth/token", method: .POST, form: [
                ("grant_type", "authorization_code"), ("code", postCode), ("redirect_uri", Self.callback), ("code_verifier", postLogin.verifier),
                ("client_id", "web-post"), ("client_secret", Self.postSecret),
            ])
            #expect(post.status == 200, "\(post.body)")

            let (login, code) = try await Self.code(broker, client: "web-jwt")
            let form = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.callback), ("code_verifier", login.verifier),
                        ("client_assertion_type", ClientAuthentication.assertionType)]
            let otherKey = await JWTKeyCollection().add(ecdsa: ES256PrivateKey(), kid: "k1")
            let now = Int(Date().timeIntervalSince1970)
            let forged = try await otherKey.sign(Assertion(iss: "web-jwt", sub: "web-jwt", aud: AudienceClaim(value: [broker.baseURL]), jti: randomToken(), exp: now + 60), kid: "k1")
            for bad in [
                try await Self.assertion(broker, audience: ["https://elsewhere.example"]),
                // A list may name a server the client also sent it to (OpenID advisory on audiences).
                try await Self.assertion(broker, audience: [broker.baseURL, "https://elsewhere.example"]),
                try await Self.assertion(broker, audience: [broker.baseURL + "/oauth/revoke"]),
                try await Self.assertion(broker, lifetime: -5),
                try await Self.assertion(broker, lifetime: 3600),
                forged,
            ] {
                let refused = try await broker.send("/oauth/token", method: .POST, form: form + [("client_assertion", bad)])
                #expect(refused.status == 401 && refused.string("error") == "invalid_client", "\(refused.body)")
            }
            let good = try await Self.assertion(broker)
            let tokens = try await broker.send("/oauth/token", method: .POST, form: form + [("client_assertion", good)])
            #expect(tokens.status == 200, "\(tokens.body)")
            let refresh = try #require(tokens.string("refresh_token"))
            let replay = try await broker.send("/oauth/token", method: .POST, form: [
                ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_assertion_type", ClientAuthentication.assertionType), ("client_assertion", good),
            ])
            #expect(replay.status == 401 && replay.json["error_description"] as? String == "Client authentication failed.")
            #expect(broker.logs.text.contains("This client assertion was used before."), "the reason is for the operator's log")
            let fresh = try await broker.send("/oauth/token", method: .POST, form: [
                ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_assertion_type", ClientAuthentication.assertionType),
                ("client_assertion", try await Self.assertion(broker, audience: [broker.baseURL + "/oauth/token"])),
            ])
            #expect(fresh.status == 200, "the token endpoint's URL is an audience too: \(fresh.body)")
            // Two ways at once is refused (RFC 6749 §2.3).
            let both = try await broker.send("/oauth/token", method: .POST, form: [
                ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_assertion_type", ClientAuthentication.assertionType),
                ("client_assertion", try await Self.assertion(broker)), ("client_secret", "x"),
            ])
            #expect(both.status == 400)
        }
    }

    @Test("Issue 46 item 1: a private_key_jwt client whose keys are at its jwks_uri: fetched once and kept; a new kid is fetched again, but not more than once a minute; a set that can no longer be fetched serves a day, then the token endpoint answers 503 temporarily_unavailable, and a failed fetch is not repeated within a minute", arguments: [DatabaseKind.sqlite])
    func publishedKeys(kind: DatabaseKind) async throws {
        let (k1, k2) = (ES256PrivateKey(), ES256PrivateKey())
        func set(_ key: ES256PrivateKey, kid: String) -> String {
            let point = key.parameters!
            return #"{"keys": [{"kty": "EC", "crv": "P-256", "kid": "\#(kid)", "x": "\#(point.x)", "y": "\#(point.y)"}]}"#
        }
        let k2Set = set(k2, kid: "k2")
        let served = Mutex<(body: String, fetches: Int)>((set(k1, kid: "k1"), 0))
        let router = Router()
        router.get("/jwks.json") { _, _ -> Response in
            let body = served.withLock { $0.fetches += 1; return $0.body }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        let (ports, bound) = AsyncStream<Int>.makeStream()
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), onServerRunning: { bound.yield($0.localAddress?.port ?? 0) })
        let services = ServiceGroup(configuration: .init(services: [app], logger: TestDatabase.logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { bound.finish() }
                try await services.run()
            }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("clients-\(UUID().uuidString).json").path
            try #"{"clients": [{"client_id": "web-jwt", "first_party": true, "redirect_uris": ["\#(Self.callback)"], "token_endpoint_auth_method": "private_key_jwt", "jwks_uri": "http://127.0.0.1:\#(port)/jwks.json"}]}"#
                .write(toFile: file, atomically: true, encoding: .utf8)
            try await LiveBroker.run(kind, settings: ["PORTVAKT_CLIENTS_FILE": file, "PORTVAKT_LEGACY_CLIENTS": ""]) { broker in
                func assertion(_ key: ES256PrivateKey, kid: String) async throws -> String {
                    let keys = await JWTKeyCollection().add(ecdsa: key, kid: JWKIdentifier(string: kid))
                    let now = Int(broker.clock.now.timeIntervalSince1970)
                    return try await keys.sign(Assertion(iss: "web-jwt", sub: "web-jwt", aud: AudienceClaim(value: [broker.baseURL]), jti: randomToken(), exp: now + 60), kid: JWKIdentifier(string: kid))
                }
                let (login, code) = try await Self.code(broker, client: "web-jwt")
                let first = try await broker.send("/oauth/token", method: .POST, form: [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.callback), ("code_verifier", login.verifier),
                    ("client_assertion_type", ClientAuthentication.assertionType), ("client_assertion", try await assertion(k1, kid: "k1")),
                ])
                #expect(first.status == 200, "\(first.body)")
                var refresh = try #require(first.string("refresh_token"))
                func refreshed(_ assertion: String) async throws -> LiveBroker.Reply {
                    let reply = try await broker.send("/oauth/token", method: .POST, form: [
                        ("grant_type", "refresh_token"), ("refresh_token", refresh),
                        ("client_assertion_type", ClientAuthentication.assertionType), ("client_assertion", assertion),
                    ])
                    if let next = reply.string("refresh_token") { refresh = next }
                    return reply
                }
                #expect(try await refreshed(try await assertion(k1, kid: "k1")).status == 200)
                #expect(served.withLock { $0.fetches } == 1, "the set is kept")

                // The client rotates to k2: not fetched again within a minute of the last fetch, then it is.
                served.withLock { $0.body = k2Set }
                let early = try await refreshed(try await assertion(k2, kid: "k2"))
                #expect(early.status == 401 && early.string("error") == "invalid_client")
                #expect(served.withLock { $0.fetches } == 1)
                broker.clock.advance(by: 61)
                #expect(try await refreshed(try await assertion(k2, kid: "k2")).status == 200)
                #expect(served.withLock { $0.fetches } == 2)

                // The host breaks: the kept set serves (a day), then the endpoint says try again later.
                served.withLock { $0.body = "<html>maintenance</html>" }
                broker.clock.advance(by: 400)
                #expect(try await refreshed(try await assertion(k2, kid: "k2")).status == 200)
                broker.clock.advance(by: 2 * 86_400)
                let unavailable = try await refreshed(try await assertion(k2, kid: "k2"))
                #expect(unavailable.status == 503 && unavailable.string("error") == "temporarily_unavailable", "\(unavailable.body)")
                let fetchesSoFar = served.withLock { $0.fetches }
                let again = try await refreshed(try await assertion(k2, kid: "k2"))
                #expect(again.status == 503, "the expired set is not used again: \(again.body)")
                #expect(served.withLock { $0.fetches } == fetchesSoFar, "a failed fetch is not repeated within the minute")
                #expect(broker.logs.text.contains("is not a JWK Set"), "the reason is for the operator's log")
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
    }

    @Test("Issue 46 item 1: of a published set only the signing keys Portvakt can check are kept: an encryption key, a symmetric key, another curve or a private key is passed over, not a reason to refuse the set")
    func publishedSetFiltering() async throws {
        let point = ES256PrivateKey().parameters!
        let good = #"{"kty": "EC", "crv": "P-256", "kid": "sig", "use": "sig", "x": "\#(point.x)", "y": "\#(point.y)"}"#
        let set = """
        {"keys": [\(good),
          {"kty": "EC", "crv": "P-256", "kid": "enc", "use": "enc", "x": "\(point.x)", "y": "\(point.y)"},
          {"kty": "oct", "kid": "hmac", "k": "c2VjcmV0"},
          {"kty": "OKP", "crv": "X25519", "kid": "x", "x": "AAAA"},
          {"kty": "EC", "crv": "P-256", "kid": "nodecode", "x": "!!", "y": "!!"},
          "not a key"]}
        """
        let keys = try await PublishedClientKeys.usableKeys(in: Data(set.utf8))
        #expect(keys.compactMap { $0.keyIdentifier?.string } == ["sig"])
        await #expect(throws: PublishedClientKeys.Unavailable.self) { try await PublishedClientKeys.usableKeys(in: Data("<html>".utf8)) }
    }

    @Test("Issue 46: a confidential client's DPoP-bound token introspects with cnf.jkt; the public app's own tokens work without a secret; the portal's id is not a client at the token endpoint", arguments: [DatabaseKind.sqlite])
    func boundAndPublic(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: try Self.settings()) { broker in
            let key = SenderConstraintTests.ProofKey(broker)
            let (login, code) = try await Self.code(broker, client: "web-basic")
            var reply = try await broker.send("/oauth/token", method: .POST, form: [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.callback), ("code_verifier", login.verifier),
            ], headers: [Self.basic("web-basic", Self.basicSecret), ("DPoP", try key.proof("POST", "/oauth/token"))])
            if reply.string("error") == "use_dpop_nonce" {
                key.nonce = reply.headers["dpop-nonce"]
                reply = try await broker.send("/oauth/token", method: .POST, form: [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.callback), ("code_verifier", login.verifier),
                ], headers: [Self.basic("web-basic", Self.basicSecret), ("DPoP", try key.proof("POST", "/oauth/token"))])
            }
            #expect(reply.status == 200 && reply.string("token_type") == "DPoP", "\(reply.body)")
            let access = try #require(reply.string("access_token"))
            let introspected = try await broker.send("/oauth/introspect", method: .POST, form: [("token", access)], headers: [Self.basic("web-basic", Self.basicSecret)]).json
            #expect((introspected["cnf"] as? [String: Any])?["jkt"] as? String == key.thumbprint)
            #expect(introspected["token_type"] as? String == "DPoP")

            let (appLogin, appCode) = try await Self.code(broker, client: "no.nhf.app", redirect: "no.nhf.app:/oauth/callback")
            let app = try await appLogin.redeem(appCode, at: broker)
            #expect(app.status == 200, "\(app.body)")
            #expect(JOSEHeader(compactJWS: try #require(app.string("id_token")))?.alg == "RS256", "a client that asked for nothing gets RS256")
            let portal = try await broker.send("/oauth/token", method: .POST, form: [("grant_type", "refresh_token"), ("refresh_token", "x"), ("client_id", PortalClient.id)])
            #expect(portal.status == 401)
            let devClient = try await broker.send("/oauth/token", method: .POST, form: [("grant_type", "refresh_token"), ("refresh_token", "x"), ("client_id", "no.portvakt.app")])
            #expect(devClient.status == 401, "with a clients file, the development clients are gone")
        }
    }
}
