import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import Testing
@testable import PortvaktSandbox

@Suite("Token endpoint and userinfo")
struct TokenTests {
    @Test("The ID token verifies against the JWKS and carries iss, aud, nonce; BankID adds acr, amr and nnin_altsub", arguments: SandboxProvider.allCases)
    func idToken(provider: SandboxProvider) async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let request = AuthorizationRequest(provider)
            let tokens = try await client.login(request)
            #expect(tokens["token_type"] as? String == "Bearer")
            #expect(tokens["refresh_token"] == nil)
            let idToken = try await client.verifyIDToken(try #require(tokens["id_token"] as? String), provider: provider)
            #expect(idToken.iss.value == "http://localhost/sandbox" + provider.issuerPath)
            #expect(idToken.aud.value == ["broker"])
            #expect(idToken.nonce == request.nonce)
            #expect(idToken.nin == nil)
            let kari = try #require(TestUsers.user(id: "kari"))
            switch provider {
            case .vipps:
                #expect(idToken.sub.value == kari.vippsSubject)
                #expect(idToken.nnin_altsub == nil)
            case .bankid:
                #expect(idToken.sub.value == kari.bankIDSubject)
                #expect(idToken.acr == "urn:bankid:bid;LOA=4" && idToken.amr == ["BID"])
                #expect(idToken.nnin_altsub == kari.personnummer)
            }
        }
    }

    @Test("BankID with biometrics (acr_values urn:bankid:bis) is LOA 3")
    func bankIDBiometrics() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            var request = AuthorizationRequest(.bankid)
            request.extra = [("acr_values", "urn:bankid:bis")]
            let tokens = try await client.login(request)
            let idToken = try await client.verifyIDToken(try #require(tokens["id_token"] as? String), provider: .bankid)
            #expect(idToken.acr == "urn:bankid:bis;LOA=3" && idToken.amr == ["BIS"])
        }
    }

    @Test("Vipps userinfo gives sub, phone_number, name, birthdate, email, and nin for an approved client that asked")
    func vippsUserinfo() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let tokens = try await client.login(AuthorizationRequest(.vipps))
            let info = try await userinfo(client, .vipps, tokens)
            #expect(info["sub"] as? String == "5a1d0000-0000-4000-8000-000000000001")
            #expect(info["phone_number"] as? String == "4790000001")
            #expect(info["name"] as? String == "Kari Nordmann")
            #expect(info["birthdate"] as? String == "1985-03-12")
            #expect(info["email"] as? String == "kari@sandbox.portvakt.test")
            #expect(info["nin"] as? String == "12438510085")

            let withoutScope = try await client.login(AuthorizationRequest(.vipps, scope: "openid name phoneNumber"))
            let value1 = try await userinfo(client, .vipps, withoutScope)["nin"]
            #expect(value1 == nil)
        }
    }

    @Test("A client not approved for the personnummer scope gets none, and the login still succeeds", arguments: SandboxProvider.allCases)
    func notApproved(provider: SandboxProvider) async throws {
        let harness = try SandboxHarness(personnummerApproved: false)
        try await harness.run { client in
            let tokens = try await client.login(AuthorizationRequest(provider))
            let idToken = try await client.verifyIDToken(try #require(tokens["id_token"] as? String), provider: provider)
            #expect(idToken.nnin_altsub == nil)
            let info = try await userinfo(client, provider, tokens)
            #expect(info["nin"] == nil && info["nnin"] == nil)
            #expect(info["sub"] != nil)
        }
    }

    @Test("BankID userinfo gives nnin only with the nnin scope")
    func bankIDUserinfo() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let with = try await client.login(AuthorizationRequest(.bankid))
            let value2 = try await userinfo(client, .bankid, with)["nnin"]
            #expect(value2 as? String == "12438510085")
            let without = try await client.login(AuthorizationRequest(.bankid, scope: "openid profile"))
            let value3 = try await userinfo(client, .bankid, without)["nnin"]
            #expect(value3 == nil)
        }
    }

    @Test("A code works once; the replay fails and revokes the first access token", arguments: SandboxProvider.allCases)
    func singleUse(provider: SandboxProvider) async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let request = AuthorizationRequest(provider)
            let value4 = try await client.authorize(request)["code"]
            let code = try #require(value4)
            let first = try await client.token(provider, code: code, verifier: request.verifier)
            #expect(first.status == .ok)
            let replay = try await client.token(provider, code: code, verifier: request.verifier)
            #expect(replay.status == .badRequest)
            #expect(try replay.json()["error"] as? String == "invalid_grant")
            let (status, _) = try await client.json("/sandbox" + provider.userinfoPath, headers: [.authorization: "Bearer \(try #require(try first.json()["access_token"] as? String))"])
            #expect(status == .unauthorized)
        }
    }

    @Test("A code expires after 60 seconds")
    func expiry() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let request = AuthorizationRequest(.vipps)
            let value5 = try await client.authorize(request)["code"]
            let code = try #require(value5)
            harness.clock.advance(seconds: 61)
            let response = try await client.token(.vipps, code: code, verifier: request.verifier)
            #expect(response.status == .badRequest)
            #expect(try response.json()["error_description"] as? String == "The authorization code has expired.")
        }
    }

    @Test("PKCE: a wrong, missing or unexpected verifier is invalid_grant", arguments: [
        ("wrong", "verifier-" + String(repeating: "w", count: 40)), ("missing", nil), ("too short", "short"),
    ] as [(String, String?)])
    func pkce(name: String, verifier: String?) async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let value6 = try await client.authorize(AuthorizationRequest(.bankid))["code"]
            let code = try #require(value6)
            let response = try await client.token(.bankid, code: code, verifier: verifier)
            #expect(try response.json()["error"] as? String == "invalid_grant", "\(name)")
        }
    }

    @Test("A verifier for a request without PKCE is refused (Vipps, where PKCE is optional)")
    func unexpectedVerifier() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            var request = AuthorizationRequest(.vipps)
            request.verifier = nil
            let value7 = try await client.authorize(request)["code"]
            let code = try #require(value7)
            let response = try await client.token(.vipps, code: code, verifier: "verifier-" + String(repeating: "v", count: 40))
            #expect(try response.json()["error"] as? String == "invalid_grant")
        }
    }

    @Test("The redirect URI must match the authorization request's, and the code its client")
    func bindings() async throws {
        let harness = try SandboxHarness()
        await harness.sandbox.register(SandboxClient(provider: .vipps, clientID: "other", clientSecret: "other-secret-012345", redirectURIs: [SandboxHarness.redirectURI]))
        try await harness.run { client in
            let request = AuthorizationRequest(.vipps)
            let value8 = try await client.authorize(request)["code"]
            let code = try #require(value8)
            let wrongRedirect = try await client.token(.vipps, code: code, verifier: request.verifier, redirectURI: SandboxHarness.redirectURI + "/")
            #expect(try wrongRedirect.json()["error"] as? String == "invalid_grant")

            let value9 = try await client.authorize(request)["code"]
            let second = try #require(value9)
            let otherClient = try await client.token(.vipps, code: second, verifier: request.verifier, clientID: "other", secret: "other-secret-012345")
            #expect(try otherClient.json()["error"] as? String == "invalid_grant")
        }
    }

    @Test("Wrong client credentials are invalid_client with 401")
    func clientAuthentication() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let request = AuthorizationRequest(.vipps)
            let value10 = try await client.authorize(request)["code"]
            let code = try #require(value10)
            let response = try await client.token(.vipps, code: code, verifier: request.verifier, secret: "wrong")
            #expect(response.status == .unauthorized)
            #expect(try response.json()["error"] as? String == "invalid_client")
            #expect(response.headers[.wwwAuthenticate] != nil)
        }
    }

    @Test("private_key_jwt: a signed assertion authenticates once; a replay or wrong audience is refused")
    func privateKeyJWT() async throws {
        let harness = try SandboxHarness()
        let key = ES256PrivateKey()
        let parameters = try #require(key.publicKey.parameters)
        let jwks = #"{"keys":[{"kty":"EC","crv":"P-256","alg":"ES256","use":"sig","kid":"c1","x":"\#(parameters.x)","y":"\#(parameters.y)"}]}"#
        await harness.sandbox.register(SandboxClient(provider: .bankid, clientID: "jwt-client", jwks: jwks, authMethod: .privateKeyJWT, redirectURIs: [SandboxHarness.redirectURI]))
        let signer = JWTKeyCollection()
        await signer.add(ecdsa: key, kid: "c1")
        let clock = harness.clock
        @Sendable func assertion(audience: String, id: String) async throws -> String {
            try await signer.sign(TestAssertion(
                iss: "jwt-client", sub: "jwt-client", aud: .init(value: [audience]),
                exp: .init(value: clock.now.addingTimeInterval(60)), jti: .init(value: id)
            ), kid: "c1")
        }
        try await harness.run { client in
            let tokenEndpoint = "http://localhost/sandbox" + SandboxProvider.bankid.tokenPath
            func exchange(_ assertion: String) async throws -> TestResponse {
                var request = AuthorizationRequest(.bankid)
                request.clientID = "jwt-client"
                let value11 = try await client.authorize(request)["code"]
                let code = try #require(value11)
                let form = URLComponents.appending([
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", request.redirectURI),
                    ("code_verifier", request.verifier!), ("client_id", "jwt-client"),
                    ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"), ("client_assertion", assertion),
                ], to: "").dropFirst()
                return try await client.execute(uri: "/sandbox" + SandboxProvider.bankid.tokenPath, method: .post,
                                                headers: [.contentType: "application/x-www-form-urlencoded"], body: .init(string: String(form)))
            }
            let good = try await assertion(audience: tokenEndpoint, id: "a1")
            let value12 = try await exchange(good).status
            #expect(value12 == .ok)
            let value13 = try await exchange(good).status
            #expect(value13 == .unauthorized)
            let value14 = try await exchange(try await assertion(audience: "https://elsewhere.example", id: "a2")).status
            #expect(value14 == .unauthorized)
            let forged = try await JWTKeyCollection().add(ecdsa: ES256PrivateKey(), kid: "c1").sign(TestAssertion(
                iss: "jwt-client", sub: "jwt-client", aud: .init(value: [tokenEndpoint]),
                exp: .init(value: harness.clock.now.addingTimeInterval(60)), jti: .init(value: "a3")
            ), kid: "c1")
            let value15 = try await exchange(forged).status
            #expect(value15 == .unauthorized)
        }
    }

    @Test("Userinfo without a valid bearer token is 401 invalid_token")
    func userinfoUnauthorized() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let (status, body) = try await client.json("/sandbox" + SandboxProvider.vipps.userinfoPath, headers: [.authorization: "Bearer nonsense"])
            #expect(status == .unauthorized)
            #expect(body["error"] as? String == "invalid_token")
        }
    }

    @Test("Hostile token requests get a 4xx: wrong content type, unknown grant, missing code, huge body")
    func hostile() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let path = "/sandbox" + SandboxProvider.vipps.tokenPath
            let basic = "Basic " + Data("broker:\(SandboxHarness.clientSecret)".utf8).base64EncodedString()
            let json = try await client.execute(uri: path, method: .post, headers: [.contentType: "application/json", .authorization: basic], body: .init(string: "{}"))
            #expect(json.status == .unsupportedMediaType)
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded", .authorization: basic]
            let password = try await client.execute(uri: path, method: .post, headers: form, body: .init(string: "grant_type=password&username=a&password=b"))
            #expect(try password.json()["error"] as? String == "unsupported_grant_type")
            let missing = try await client.execute(uri: path, method: .post, headers: form, body: .init(string: "grant_type=authorization_code"))
            #expect(try missing.json()["error"] as? String == "invalid_request")
            let huge = try await client.execute(uri: path, method: .post, headers: form, body: .init(string: String(repeating: "a", count: 70_000)))
            #expect(huge.status == .contentTooLarge)
            let broken = try await client.execute(uri: path, method: .post, headers: form, body: .init(string: "code=%zz"))
            #expect(broken.status == .badRequest)
        }
    }

    private func userinfo(_ client: some TestClientProtocol, _ provider: SandboxProvider, _ tokens: [String: Any]) async throws -> [String: Any] {
        let token = try #require(tokens["access_token"] as? String)
        let (status, body) = try await client.json("/sandbox" + provider.userinfoPath, headers: [.authorization: "Bearer \(token)"])
        #expect(status == .ok)
        return body
    }
}

struct TestAssertion: JWTPayload {
    let iss: IssuerClaim
    let sub: SubjectClaim
    let aud: AudienceClaim
    let exp: ExpirationClaim
    let jti: IDClaim

    init(iss: String, sub: String, aud: AudienceClaim, exp: ExpirationClaim, jti: IDClaim) {
        self.iss = .init(value: iss)
        self.sub = .init(value: sub)
        self.aud = aud
        self.exp = exp
        self.jti = jti
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
