import Foundation
import JWTKit
import Testing
@testable import PortvaktCore

/// An in-memory repository that keeps what the SQL store keeps.
actor MemoryKeyRepository: SigningKeyRepository {
    var keys: [StoredSigningKey] = []

    func signingKeys() -> [StoredSigningKey] { keys.sorted { $0.createdAt > $1.createdAt } }

    func activate(_ key: StoredSigningKey, now: Date) {
        keys = keys.map { $0.retiredAt == nil ? StoredSigningKey(kid: $0.kid, sealedPrivateKey: $0.sealedPrivateKey, createdAt: $0.createdAt, retiredAt: now) : $0 }
        keys.append(key)
    }
}

struct TestClaims: JWTPayload {
    var sub: SubjectClaim
    func verify(using algorithm: some JWTAlgorithm) throws {}
}

@Suite("Signing keys")
struct SigningKeyTests {
    @Test("The first load creates one key; later loads reuse it")
    func createsOnce() async throws {
        let repository = MemoryKeyRepository()
        let cipher = try FieldCipher(keys: [TestKeys.cipherKey("a")])
        let first = try await SigningKeySet.load(from: repository, cipher: cipher)
        let second = try await SigningKeySet.load(from: repository, cipher: cipher)
        #expect(first.active.kid == second.active.kid)
        #expect(await repository.keys.count == 1)
    }

    @Test("Rotation publishes the new key, signs with it after the publication delay, and keeps the old one verifying until retention ends")
    func rotation() async throws {
        let repository = MemoryKeyRepository()
        let cipher = try FieldCipher(keys: [TestKeys.cipherKey("a")])
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let old = try await SigningKeySet.load(from: repository, cipher: cipher, now: start)
        let token = try await old.keyCollection().sign(TestClaims(sub: "u1"), kid: JWKIdentifier(string: old.active.kid))

        let newKey = try await SigningKeySet.rotate(repository, cipher: cipher, now: start.addingTimeInterval(60))
        let published = try await SigningKeySet.load(from: repository, cipher: cipher, now: start.addingTimeInterval(61))
        #expect(published.active.kid == old.active.kid, "the new key is published before it signs")
        #expect(Set(published.jwks.keys.compactMap(\.keyIdentifier?.string)) == [old.active.kid, newKey.kid])
        let rotated = try await SigningKeySet.load(from: repository, cipher: cipher, now: start.addingTimeInterval(60 + SigningKeySet.publicationDelay))
        #expect(rotated.active.kid == newKey.kid)
        #expect(Set(rotated.jwks.keys.compactMap(\.keyIdentifier?.string)) == [old.active.kid, rotated.active.kid])
        let verified = try await rotated.keyCollection().verify(token, as: TestClaims.self)
        #expect(verified.sub.value == "u1")

        let dayLater = try await SigningKeySet.load(from: repository, cipher: cipher, now: start.addingTimeInterval(60 + SigningKeySet.defaultRetention))
        #expect(dayLater.jwks.keys.compactMap(\.keyIdentifier?.string) == [rotated.active.kid])
        await #expect(throws: (any Error).self) { try await dayLater.keyCollection().verify(token, as: TestClaims.self) }
    }

    @Test("The JWKS holds public keys only, with kid, alg ES256 and curve P-256")
    func jwksIsPublic() async throws {
        let set = try await SigningKeySet.load(from: MemoryKeyRepository(), cipher: FieldCipher(keys: [TestKeys.cipherKey("a")]))
        let json = String(decoding: try JSONEncoder().encode(set.jwks), as: UTF8.self)
        #expect(json.contains(#""kid":"\#(set.active.kid)""#))
        #expect(json.contains(#""alg":"ES256""#))
        #expect(json.contains(#""crv":"P-256""#))
        #expect(!json.contains(#""d":"#))
    }

    @Test("A stored key whose material does not match its kid is refused")
    func tamperedKid() async throws {
        let repository = MemoryKeyRepository()
        let cipher = try FieldCipher(keys: [TestKeys.cipherKey("a")])
        let real = try await SigningKeySet.load(from: repository, cipher: cipher)
        let sealed = await repository.keys[0].sealedPrivateKey
        let forged = StoredSigningKey(kid: "attacker", sealedPrivateKey: sealed, createdAt: Date(), retiredAt: nil)
        let other = MemoryKeyRepository()
        await other.activate(forged, now: Date())
        // The sealed key is bound to its real kid, so it does not even open under another one.
        await #expect(throws: (any Error).self) { try await SigningKeySet.load(from: other, cipher: cipher) }
        #expect(real.active.kid != "attacker")
    }
}

@Suite("BankID QR code")
struct BankIDQRCodeTests {
    @Test("The DESIGN.md test vector: secret d28db9a7-…, t = 0")
    func testVector() {
        #expect(BankIDQRCode.authCode(qrStartSecret: "d28db9a7-4cde-429e-a983-359be676944c", seconds: 0)
            == "dc69358e712458a66a7525beef148ae8526b1c71610eff2c16cdffb4cdac9bf8")
        #expect(BankIDQRCode.frame(qrStartToken: "tok", qrStartSecret: "d28db9a7-4cde-429e-a983-359be676944c", seconds: 0)
            == "bankid.tok.0.dc69358e712458a66a7525beef148ae8526b1c71610eff2c16cdffb4cdac9bf8")
    }
}
