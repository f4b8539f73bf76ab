import Foundation
import Hummingbird
import PortvaktCore
import HummingbirdTesting
import JWTKit
import Testing
@testable import PortvaktSandbox

@Suite("Fault injection")
struct FaultTests {
    private func harness(_ provider: SandboxProvider, _ faults: Set<SandboxFault>, slowSeconds: Double = 10) throws -> SandboxHarness {
        try SandboxHarness(faults: [provider: FaultSettings(faults: faults, slowSeconds: slowSeconds)])
    }

    @Test("outage: every endpoint of that provider answers 503; the other provider is unaffected", arguments: SandboxProvider.allCases)
    func outage(provider: SandboxProvider) async throws {
        try await harness(provider, [.outage]).run { client in
            for path in [provider.discoveryPath, provider.jwksPath, provider.tokenPath, provider.userinfoPath, provider.authorizationPath] {
                let value1 = try await client.execute(uri: "/sandbox" + path, method: .get).status
                #expect(value1 == .serviceUnavailable, "\(path)")
            }
            let other = provider == .vipps ? SandboxProvider.bankid : .vipps
            let value2 = try await client.execute(uri: "/sandbox" + other.discoveryPath, method: .get).status
            #expect(value2 == .ok)
        }
    }

    @Test("connection_drop: the connection closes without an answer")
    func connectionDrop() async throws {
        _ = try await harness(.vipps, [.connectionDrop]).run(.live) { client in
            await #expect(throws: (any Error).self) {
                try await client.execute(uri: "/sandbox" + SandboxProvider.vipps.discoveryPath, method: .get)
            }
        }
    }

    @Test("slow: answers only after the configured delay")
    func slow() async throws {
        try await harness(.bankid, [.slow], slowSeconds: 0.3).run { client in
            let start = ContinuousClock.now
            let value3 = try await client.execute(uri: "/sandbox" + SandboxProvider.bankid.discoveryPath, method: .get).status
            #expect(value3 == .ok)
            #expect(ContinuousClock.now - start >= .milliseconds(300))
        }
    }

    @Test("user_cancels: approving still ends with access_denied", arguments: SandboxProvider.allCases)
    func userCancels(provider: SandboxProvider) async throws {
        try await harness(provider, [.userCancels]).run { client in
            let value4 = try await client.authorize(AuthorizationRequest(provider))["error"]
            #expect(value4 == "access_denied")
        }
    }

    @Test("expired_code and reused_code: a fresh code is refused with invalid_grant", arguments: [
        (SandboxFault.expiredCode, "The authorization code has expired."), (.reusedCode, "The authorization code has already been used."),
    ])
    func codeFaults(fault: SandboxFault, message: String) async throws {
        try await harness(.vipps, [fault]).run { client in
            let request = AuthorizationRequest(.vipps)
            let value5 = try await client.authorize(request)["code"]
            let code = try #require(value5)
            let body = try await client.token(.vipps, code: code, verifier: request.verifier).json()
            #expect(body["error"] as? String == "invalid_grant")
            #expect(body["error_description"] as? String == message)
        }
    }

    @Test("nin_missing: no personnummer in userinfo or ID token, though the client is approved", arguments: SandboxProvider.allCases)
    func personnummerMissing(provider: SandboxProvider) async throws {
        try await harness(provider, [.personnummerMissing]).run { client in
            let tokens = try await client.login(AuthorizationRequest(provider))
            let idToken = try await client.verifyIDToken(try #require(tokens["id_token"] as? String), provider: provider)
            #expect(idToken.nnin_altsub == nil)
            let (_, info) = try await client.json("/sandbox" + provider.userinfoPath, headers: [.authorization: "Bearer \(tokens["access_token"] as? String ?? "")"])
            #expect(info["nin"] == nil && info["nnin"] == nil && info["sub"] != nil)
        }
    }

    @Test("Forged ID tokens fail verification against the provider's JWKS", arguments: [
        (SandboxFault.badSignature, "RS256"), (.unknownKeyID, "RS256"), (.algorithmNone, "none"), (.hmacWithPublicKey, "HS256"), (.embeddedKey, "RS256"),
    ])
    func forgedTokens(fault: SandboxFault, algorithm: String) async throws {
        try await harness(.bankid, [fault]).run { client in
            let value6 = try await client.login(AuthorizationRequest(.bankid))["id_token"]
            let token = try #require(value6 as? String)
            let headerData = try #require(Data(base64URLEncoded: String(token.split(separator: ".")[0])))
            let header = try #require(JSONSerialization.jsonObject(with: headerData) as? [String: Any])
            #expect(header["alg"] as? String == algorithm)
            if fault == .embeddedKey { #expect(header["jwk"] != nil) }
            await #expect(throws: (any Error).self) { try await client.verifyIDToken(token, provider: .bankid) }
        }
    }

    @Test("Wrong claims verify cryptographically but name the wrong nonce, audience, issuer or time", arguments: [
        SandboxFault.wrongNonce, .wrongAudience, .wrongIssuer, .expiredIDToken,
    ])
    func wrongClaims(fault: SandboxFault) async throws {
        let harness = try harness(.vipps, [fault])
        try await harness.run { client in
            let request = AuthorizationRequest(.vipps)
            let value7 = try await client.login(request)["id_token"]
            let token = try await client.verifyIDToken(try #require(value7 as? String), provider: .vipps)
            #expect((token.nonce != request.nonce) == (fault == .wrongNonce))
            #expect((token.aud.value != ["broker"]) == (fault == .wrongAudience))
            #expect((token.iss.value != "http://localhost/sandbox" + SandboxProvider.vipps.issuerPath) == (fault == .wrongIssuer))
            #expect((token.exp.value < harness.clock.now) == (fault == .expiredIDToken))
        }
    }

    @Test("Faults parse from configuration; unknown names are refused")
    func parsing() {
        let parsed = SandboxConfiguration.parseFaults("vipps:outage, bankid:slow,bankid:nin_missing")
        #expect(parsed?[.vipps]?.faults == [.outage])
        #expect(parsed?[.bankid]?.faults == [.slow, .personnummerMissing])
        #expect(SandboxConfiguration.parseFaults("vipps:meltdown") == nil)
        #expect(SandboxConfiguration.parseFaults("altinn:outage") == nil)
    }
}
