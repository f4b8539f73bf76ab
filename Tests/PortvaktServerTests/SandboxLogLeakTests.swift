import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import PortvaktCore
import PortvaktSandbox
import PortvaktServer
import PortvaktTestSupport
import Testing

/// A whole sandbox login through the real server, at trace level, leaves no personnummer, code,
/// token, state, nonce, verifier or secret in the logs.
@Suite("No secrets from sandbox logins in logs")
struct SandboxLogLeakTests {
    @Test("Vipps and BankID sandbox logins log none of what they exchange", arguments: SandboxProvider.allCases)
    func sandboxLogin(provider: SandboxProvider) async throws {
        let sink = LogSink()
        let admin = "admin-token-for-log-test-0123"
        let secret = "client-secret-for-log-test"
        let app = try await PortvaktApplication.build(
            configuration: TestServer.configuration(["PORTVAKT_SANDBOX_ADMIN_TOKEN": admin]), logger: TestServer.logger(into: sink)
        )
        let secrets = try await app.test(.live) { client -> [String] in
            let registration = #"{"provider":"\#(provider.rawValue)","client_id":"log-test","client_secret":"\#(secret)","redirect_uris":["https://app.example/cb"]}"#
            _ = try await client.execute(uri: "/sandbox/admin/clients", method: .post,
                                         headers: [.authorization: "Bearer \(admin)", .contentType: "application/json"], body: ByteBuffer(string: registration))
            let (issuerPath, scope) = provider == .vipps
                ? ("/sandbox/vipps/access-management-1.0/access/oauth2", "openid%20nin%20phoneNumber")
                : ("/sandbox/bankid/auth/realms/current/protocol/openid-connect", "openid%20nnin_altsub%20nnin")
            let state = "state-for-log-test-1", nonce = "nonce-for-log-test-1"
            let verifier = "verifier-for-log-test-" + String(repeating: "x", count: 30)
            let challenge = Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncoded()
            let authorize = "\(issuerPath)/auth?client_id=log-test&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&response_type=code&scope=\(scope)"
                + "&state=\(state)&nonce=\(nonce)&code_challenge=\(challenge)&code_challenge_method=S256&sandbox_user=kari&sandbox_action=approve"
            let redirect = try await client.execute(uri: authorize, method: .get)
            let location = try #require(redirect.headers[.location])
            let code = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)
            let basic = Data("log-test:\(secret)".utf8).base64EncodedString()
            let tokens = try await client.execute(uri: "\(issuerPath)/token", method: .post,
                                         headers: [.authorization: "Basic \(basic)", .contentType: "application/x-www-form-urlencoded"],
                                         body: ByteBuffer(string: "grant_type=authorization_code&code=\(code)&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&code_verifier=\(verifier)"))
            #expect(tokens.status == .ok)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(buffer: tokens.body)) as? [String: Any])
            let accessToken = try #require(body["access_token"] as? String), idToken = try #require(body["id_token"] as? String)
            let userinfo = provider == .vipps ? "/sandbox/vipps/vipps-userinfo-api/userinfo" : "\(issuerPath)/userinfo"
            let info = try await client.execute(uri: userinfo, method: .get, headers: [.authorization: "Bearer \(accessToken)"])
            #expect(String(buffer: info.body).contains("12438510085"))
            return [code, state, nonce, verifier, secret, admin, accessToken, idToken]
        }
        let kari = try #require(TestUsers.user(id: "kari"))
        #expect(sink.text.contains("/sandbox/"))
        for secret in secrets + [kari.personnummer] {
            #expect(!sink.text.contains(secret))
        }
    }
}
