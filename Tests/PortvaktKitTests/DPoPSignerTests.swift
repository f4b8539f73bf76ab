import Foundation
import PortvaktKit
import PortvaktProtocol
import Testing

/// Issue 22: the client's proof key and the proofs it signs, as the server parses them.
@Suite("DPoP proofs on the client")
struct DPoPSignerTests {
    @Test("The proof key survives a restart (same storage), and after logout a new one is made")
    func keyLifetime() async throws {
        let storage = MemorySecureStorage()
        let first = try await SoftwareProofKey(storage: storage).publicKey()
        let restarted = SoftwareProofKey(storage: storage)
        #expect(try await restarted.publicKey() == first)
        await restarted.delete()
        #expect(try await SoftwareProofKey(storage: storage).publicKey() != first)
    }

    @Test("S7 (issue 47 item 4): eight first uses at once make one proof key, the one stored, even when storage answers slowly")
    func oneKeyForConcurrentFirstUses() async throws {
        let storage = SlowStorage()
        let key = SoftwareProofKey(storage: storage)
        let keys = try await withThrowingTaskGroup(of: DevicePublicKey.self) { group in
            for _ in 0..<8 { group.addTask { try await key.publicKey() } }
            return try await group.reduce(into: [DevicePublicKey]()) { $0.append($1) }
        }
        #expect(Set(keys.map(\.thumbprint)).count == 1, "every first use got the same key")
        #expect(try await SoftwareProofKey(storage: storage).publicKey() == keys[0], "and it is the key stored")
        #expect(await storage.writes == 1)
    }

    /// Storage that yields at every call, as the Keychain or a file does, letting other callers in.
    actor SlowStorage: SecureStorage {
        private let inner = MemorySecureStorage()
        private(set) var writes = 0
        func read(_ key: SecureStorageKey) async throws -> Data? {
            try await Task.sleep(for: .milliseconds(5))
            return try await inner.read(key)
        }
        func write(_ value: Data, for key: SecureStorageKey) async throws {
            writes += 1
            try await Task.sleep(for: .milliseconds(5))
            try await inner.write(value, for: key)
        }
        func delete(_ key: SecureStorageKey) async throws { try await inner.delete(key) }
    }

    @Test("A proof names the request, carries the server's latest nonce and the token's hash, and verifies with its own key")
    func proofContents() async throws {
        let key = SoftwareProofKey(storage: MemorySecureStorage())
        let signer = DPoPSigner(key: key, now: { Date(timeIntervalSince1970: 1_800_000_000) })
        let url = try #require(URL(string: "https://login.example.no/v1/me?organisation=nhf#top"))
        let bare = try DPoPProof(compact: try await signer.proof(method: "GET", url: url))
        #expect(bare.nonce == nil && bare.ath == nil)
        #expect(bare.htu == "https://login.example.no/v1/me" && bare.htm == "GET" && bare.iat == 1_800_000_000)
        #expect(bare.thumbprint == (try await signer.thumbprint()))

        await signer.remember(nonce: "n-1")
        await signer.remember(nonce: nil)
        let withToken = try DPoPProof(compact: try await signer.proof(method: "GET", url: url, accessToken: "a.b.c"))
        #expect(withToken.nonce == "n-1")
        #expect(withToken.ath == DPoPProof.accessTokenHash("a.b.c"))
        #expect(withToken.jti != bare.jti)
    }

    @Test("Only a token with cnf.jkt goes as DPoP")
    func binding() {
        func token(_ claims: String) -> String { "e30.\(Data(claims.utf8).base64URLEncoded()).c2ln" }
        #expect(AccessTokenBinding.isBound(token(#"{"cnf":{"jkt":"abc"}}"#)))
        #expect(!AccessTokenBinding.isBound(token(#"{"sub":"x"}"#)))
        #expect(!AccessTokenBinding.isBound("not-a-jwt"))
    }
}
