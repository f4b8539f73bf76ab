import Foundation
import Hummingbird
import PortvaktCore
import HummingbirdTesting
import Testing
@testable import PortvaktSandbox

@Suite("Discovery and keys")
struct DiscoveryTests {
    @Test("Discovery lives where the real provider's does and names this sandbox's endpoints", arguments: SandboxProvider.allCases)
    func discovery(provider: SandboxProvider) async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let (status, document) = try await client.json("/sandbox" + provider.discoveryPath)
            #expect(status == .ok)
            let issuer = try #require(document["issuer"] as? String)
            #expect(issuer == "http://localhost/sandbox" + provider.issuerPath)
            #expect(document["token_endpoint"] as? String == "http://localhost/sandbox" + provider.tokenPath)
            #expect(document["code_challenge_methods_supported"] as? [String] == ["S256"])
            #expect(document["id_token_signing_alg_values_supported"] as? [String] == ["RS256"])
            if provider == .vipps {
                #expect(provider.discoveryPath.hasSuffix("/access-management-1.0/access/.well-known/openid-configuration"))
                #expect((document["userinfo_endpoint"] as? String)?.hasSuffix("/vipps-userinfo-api/userinfo") == true)
            } else {
                #expect(provider.discoveryPath.contains("/auth/realms/"))
                #expect((document["token_endpoint_auth_methods_supported"] as? [String])?.contains("private_key_jwt") == true)
            }
        }
    }

    @Test("The JWKS holds one 2048-bit RS256 key per provider, different between providers")
    func jwks() async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            var kids: [String] = []
            for provider in SandboxProvider.allCases {
                let (_, jwks) = try await client.json("/sandbox" + provider.jwksPath)
                let keys = try #require(jwks["keys"] as? [[String: Any]])
                #expect(keys.count == 1)
                #expect(keys[0]["kty"] as? String == "RSA" && keys[0]["alg"] as? String == "RS256")
                #expect(try #require(Data(base64URLEncoded: keys[0]["n"] as? String ?? "")).count == 256)
                kids.append(try #require(keys[0]["kid"] as? String))
            }
            #expect(Set(kids).count == 2)
        }
    }

    @Test("A malformed Host header names no issuer", arguments: ["evil.example/<script>", "a b", "", "x\"y"])
    func hostileHost(host: String) {
        let request = Request(head: HTTPRequest(method: .get, scheme: "http", authority: host, path: "/"), body: .init(buffer: ByteBuffer()))
        #expect(request.baseURLFromHost == nil)
    }

    @Test("A plain host and port names the issuer")
    func plainHost() {
        let request = Request(head: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:8080", path: "/"), body: .init(buffer: ByteBuffer()))
        #expect(request.baseURLFromHost == "http://127.0.0.1:8080")
    }
}

