import Foundation
import JWTKit
import Testing
@testable import PortvaktCore

/// An in-memory repository that keeps what the SQL store keeps.
actor MemoryKeyRepository: SigningKeyRepository {
    var keys: [StoredSigningKey] = []

    func signingKeys() -> [StoredSigningKey] { keys.sorted { $0.createdAt > $1.createdAt } }

    func activate(_ new: [StoredSigningKey], now: Date) {
        let algorithms = Set(new.map(\.algorithm))
        keys = keys.map { key in
            guard key.retiredAt == nil, algorithms.contains(key.algorithm) else { return key }
            return StoredSigningKey(kid: key.kid, algorithm: key.algorithm, sealedPrivateKey: key.sealedPrivateKey, createdAt: key.createdAt, retiredAt: now)
        }
        keys += new
    }
}

struct TestClaims: JWTPayload {
    var sub: SubjectClaim
    func verify(using algorithm: some JWTAlgorithm) throws {}
}

@Suite("Signing keys")
struct SigningKeyTests {
    @Test("The first load creates one key of each algorithm (ES256, RS256); later loads reuse them")
    func createsOnce() async throws {
        let repository = MemoryKeyRepository()
        let cipher = try FieldCipher(keys: [TestKeys.cipherKey("a")])
        let first = try await SigningKeySet.load(from: repository, cipher: cipher)
        let second = try await SigningKeySet.load(from: repository, cipher: cipher)
        #expect(first.active.kid == second.active.kid)
        #expect(first.active(.rs256).kid == second.active(.rs256).kid)
        #expect(first.active.algorithm == .es256 && first.active(.rs256).algorithm == .rs256)
        #expect(await repository.keys.map(\.algorithm).sorted { $0.rawValue < $1.rawValue } == [.es256, .rs256])
    }

    @Test("Issue 46: a database from before RS256 (an ES256 key only) gets its RS256 key at the next load; the ES256 key keeps signing")
    func addsRS256ToAnOldDatabase() async throws {
        let repository = MemoryKeyRepository()
        let cipher = try FieldCipher(keys: [TestKeys.cipherKey("a")])
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let old = try await SigningKeySet.rotate(repository, cipher: cipher, algorithms: [.es256], now: start)
        let set = try await SigningKeySet.load(from: repository, cipher: cipher, now: start.addingTimeInterval(3600))
        #expect(set.active.kid == old[0].kid)
        #expect(set.active(.rs256).algorithm == .rs256)
        #expect(await repository.keys.count == 2)
    }

    @Test("Issue 46: an RS256 token verifies by its kid with the RSA key's public half; the JWKS names it RSA with n and e and no private part")
    func rs256() async throws {
        let set = try await SigningKeySet.load(from: MemoryKeyRepository(), cipher: FieldCipher(keys: [TestKeys.cipherKey("a")]))
        let rsa = set.active(.rs256)
        let collection = await set.keyCollection()
        let token = try await collection.sign(TestClaims(sub: "u1"), kid: JWKIdentifier(string: rsa.kid))
        #expect(JOSEHeader(compactJWS: token)?.alg == "RS256")
        // Verified by a collection that has only the published JWKS, as a relying party would.
        let published = try await JWTKeyCollection().add(jwks: set.jwks)
        #expect(try await published.verify(token, as: TestClaims.self).sub.value == "u1")
        let jwk = try #require(set.jwks.keys.first { $0.keyIdentifier?.string == rsa.kid })
        #expect(jwk.keyType == .rsa && jwk.modulus != nil && jwk.exponent == "AQAB" && jwk.privateExponent == nil)
        // The kid is the RFC 7638 thumbprint of exactly those members.
        #expect(rsa.kid == JWKThumbprint.rsa(n: jwk.modulus!, e: jwk.exponent!))
        #expect(Data(base64URLEncoded: jwk.modulus!)?.count == 256, "2048-bit modulus without a leading zero byte")
    }

    @Test("Rotation publishes the new key, signs with it after the publication delay, and keeps the old one verifying until retention ends")
    func rotation() async throws {
        let repository = MemoryKeyRepository()
        let cipher = try FieldCipher(keys: [TestKeys.cipherKey("a")])
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let old = try await SigningKeySet.load(from: repository, cipher: cipher, now: start)
        let token = try await old.keyCollection().sign(TestClaims(sub: "u1"), kid: JWKIdentifier(string: old.active.kid))

        let newKeys = try await SigningKeySet.rotate(repository, cipher: cipher, now: start.addingTimeInterval(60))
        let newKey = try #require(newKeys.first { $0.algorithm == .es256 })
        #expect(Set(newKeys.map(\.algorithm)) == [.es256, .rs256], "both algorithms rotate together")
        let published = try await SigningKeySet.load(from: repository, cipher: cipher, now: start.addingTimeInterval(61))
        #expect(published.active.kid == old.active.kid, "the new key is published before it signs")
        let oldKids: Set<String> = [old.active.kid, old.active(.rs256).kid]
        #expect(Set(published.jwks.keys.compactMap(\.keyIdentifier?.string)) == oldKids.union(newKeys.map(\.kid)))
        let rotated = try await SigningKeySet.load(from: repository, cipher: cipher, now: start.addingTimeInterval(60 + SigningKeySet.publicationDelay))
        #expect(rotated.active.kid == newKey.kid)
        #expect(rotated.active(.rs256).kid == newKeys.first { $0.algorithm == .rs256 }?.kid)
        #expect(Set(rotated.jwks.keys.compactMap(\.keyIdentifier?.string)) == oldKids.union(newKeys.map(\.kid)))
        let verified = try await rotated.keyCollection().verify(token, as: TestClaims.self)
        #expect(verified.sub.value == "u1")

        let dayLater = try await SigningKeySet.load(from: repository, cipher: cipher, now: start.addingTimeInterval(60 + SigningKeySet.defaultRetention))
        #expect(Set(dayLater.jwks.keys.compactMap(\.keyIdentifier?.string)) == Set(newKeys.map(\.kid)))
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
        let forged = StoredSigningKey(kid: "attacker", algorithm: .es256, sealedPrivateKey: sealed, createdAt: Date(), retiredAt: nil)
        let other = MemoryKeyRepository()
        await other.activate([forged], now: Date())
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
