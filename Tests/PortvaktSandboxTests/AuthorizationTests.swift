import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import PortvaktSandbox

@Suite("Authorization endpoint")
struct AuthorizationTests {
    @Test("Approving redirects with a code and the state; BankID adds iss (RFC 9207)", arguments: SandboxProvider.allCases)
    func approve(provider: SandboxProvider) async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let redirect = try await client.authorize(AuthorizationRequest(provider))
            #expect(redirect["code"]?.count == 43)
            #expect(redirect["state"] == "state-0123456789")
            #expect(redirect["iss"] == (provider == .bankid ? "http://localhost/sandbox" + provider.issuerPath : nil))
        }
    }

    @Test("Cancelling redirects with access_denied", arguments: SandboxProvider.allCases)
    func cancel(provider: SandboxProvider) async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            var request = AuthorizationRequest(provider)
            request.action = "cancel"
            let redirect = try await client.authorize(request)
            #expect(redirect["error"] == "access_denied")
            #expect(redirect["code"] == nil)
            #expect(redirect["state"] == request.state)
        }
    }

    @Test("A redirect URI that is not exactly registered is shown as an error, never followed", arguments: [
        "https://broker.example/callback/", "https://broker.example/callbackx", "https://broker.example/Callback",
        "HTTPS://broker.example/callback", "https://broker.example/callback?x=1", "https://broker.example/callback#x",
        "https://broker.example/%63allback", "https://broker.example.evil.test/callback", "https://broker.example/callback/../callback",
        "http://broker.example/callback", "",
    ])
    func redirectMismatch(uri: String) async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            var request = AuthorizationRequest(.vipps)
            request.redirectURI = uri
            let response = try await client.execute(uri: request.uri, method: .get)
            #expect(response.status == .badRequest)
            #expect(response.headers[.location] == nil)
        }
    }

    @Test("An unknown client is shown as an error", arguments: SandboxProvider.allCases)
    func unknownClient(provider: SandboxProvider) async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            var request = AuthorizationRequest(provider)
            request.clientID = "stranger"
            let response = try await client.execute(uri: request.uri, method: .get)
            #expect(response.status == .badRequest)
            #expect(response.headers[.location] == nil)
        }
    }

    @Test("BankID requires PKCE; plain is refused by both")
    func pkceRequired() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            var missing = AuthorizationRequest(.bankid)
            missing.verifier = nil
            let value1 = try await client.authorize(missing)["error"]
            #expect(value1 == "invalid_request")
            for provider in SandboxProvider.allCases {
                var plain = AuthorizationRequest(provider)
                plain.method = "plain"
                let value2 = try await client.authorize(plain)["error"]
                #expect(value2 == "invalid_request")
            }
        }
    }

    @Test("Vipps refuses a state shorter than 8 characters; openid and known scopes are required")
    func stateAndScopes() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            var short = AuthorizationRequest(.vipps)
            short.state = "short"
            let value3 = try await client.authorize(short)["error"]
            #expect(value3 == "invalid_request")
            let value4 = try await client.authorize(AuthorizationRequest(.vipps, scope: "name"))["error"]
            #expect(value4 == "invalid_scope")
            let value5 = try await client.authorize(AuthorizationRequest(.bankid, scope: "openid admin"))["error"]
            #expect(value5 == "invalid_scope")
        }
    }

    @Test("A repeated parameter is a 400 (RFC 6749 §3.1)")
    func repeatedParameter() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let uri = AuthorizationRequest(.vipps).uri + "&client_id=broker"
            let value6 = try await client.execute(uri: uri, method: .get).status
            #expect(value6 == .badRequest)
        }
    }

    @Test("Without a choice the login page is shown: sandbox banner, lang, labels, both buttons, in Bokmål or English")
    func loginPage() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            var request = AuthorizationRequest(.vipps)
            request.action = nil
            let norwegian = String(buffer: try await client.execute(uri: request.uri, method: .get).body)
            #expect(norwegian.contains(#"<html lang="nb">"#))
            #expect(norwegian.contains("SANDKASSE"))
            #expect(norwegian.contains("<legend>Velg testperson</legend>"))
            #expect(norwegian.contains(#"value="approve">Godkjenn"#) && norwegian.contains(#"value="cancel">Avbryt"#))
            #expect(norwegian.contains(#"<label><input type="radio" name="user" value="kari" checked>"#))
            request.extra = [("ui_locales", "en nb")]
            let english = String(buffer: try await client.execute(uri: request.uri, method: .get).body)
            #expect(english.contains(#"<html lang="en">"#) && english.contains("SANDBOX") && english.contains("Approve"))
        }
    }

    @Test("The sandbox's pages are templates with one stylesheet of their own, served under the prefix; no inline style, a CSP that allows none")
    func stylesheet() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            var request = AuthorizationRequest(.vipps)
            request.action = nil
            let page = try await client.execute(uri: request.uri, method: .get)
            let html = String(buffer: page.body)
            #expect(html.contains(#"<link rel="stylesheet" href="/sandbox/assets/sandbox.css">"#) && !html.contains("<style"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("style-src 'self'") == true)
            #expect(page.headers[.contentSecurityPolicy]?.contains("unsafe-inline") == false)
            let css = try await client.execute(uri: "/sandbox/assets/sandbox.css", method: .get)
            #expect(css.status == .ok && css.headers[.contentType]?.hasPrefix("text/css") == true && String(buffer: css.body).contains(".banner"))
        }
    }

    @Test("The page's form posts the choice back and is answered with 303 and a code")
    func formPost() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            var request = AuthorizationRequest(.bankid)
            request.action = nil
            let response = try await client.execute(
                uri: request.uri, method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: .init(string: "user=ola&action=approve")
            )
            #expect(response.status == .seeOther)
            let redirect = try #require(response.headers[.location]).queryFields(expectedPrefix: request.redirectURI)
            #expect(redirect["code"] != nil)
        }
    }

    @Test("Page text is escaped: a hostile client id is not markup")
    func escaping() async throws {
        let harness = try SandboxHarness()
        await harness.sandbox.register(SandboxClient(provider: .vipps, clientID: "<script>x</script>", clientSecret: "s", redirectURIs: [SandboxHarness.redirectURI]))
        try await harness.run { client in
            var request = AuthorizationRequest(.vipps)
            request.clientID = "<script>x</script>"
            request.action = nil
            let page = String(buffer: try await client.execute(uri: request.uri, method: .get).body)
            #expect(!page.contains("<script>"))
            #expect(page.contains("&lt;script&gt;"))
        }
    }
}
