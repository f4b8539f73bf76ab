import Foundation
import Testing
@testable import PortvaktCore

@Suite("Field encryption")
struct FieldCipherTests {
    @Test("Sealed values open with the same context and carry the active key id")
    func roundTrip() throws {
        let cipher = try FieldCipher(keys: [TestKeys.cipherKey("2026-a")])
        let sealed = try cipher.seal(Data("secret".utf8), context: "member:1")
        #expect(sealed.keyID == "2026-a")
        #expect(!sealed.combined.contains(Data("secret".utf8)))
        #expect(try cipher.open(sealed, context: "member:1") == Data("secret".utf8))
    }

    @Test("Sealing twice gives different ciphertexts (fresh nonce)")
    func freshNonce() throws {
        let cipher = try FieldCipher(keys: [TestKeys.cipherKey("a")])
        let first = try cipher.seal(Data("same".utf8), context: "c")
        let second = try cipher.seal(Data("same".utf8), context: "c")
        #expect(first.combined != second.combined)
    }

    @Test("After rotation, old values still open and new ones use the new key")
    func rotation() throws {
        let old = try TestKeys.cipherKey("old")
        let before = try FieldCipher(keys: [old])
        let sealedBefore = try before.seal(Data("x".utf8), context: "c")
        let after = try FieldCipher(keys: [TestKeys.cipherKey("new"), old])
        #expect(try after.open(sealedBefore, context: "c") == Data("x".utf8))
        #expect(try after.seal(Data("y".utf8), context: "c").keyID == "new")
    }

    @Test("Another context, a flipped bit, a truncation or an unknown key is refused")
    func refusals() throws {
        let cipher = try FieldCipher(keys: [TestKeys.cipherKey("a")])
        let sealed = try cipher.seal(Data("x".utf8), context: "member:1")
        #expect(throws: FieldCipherError.authenticationFailed) { try cipher.open(sealed, context: "member:2") }
        for index in sealed.combined.indices {
            var flipped = sealed.combined
            flipped[index] ^= 0x01
            #expect(throws: FieldCipherError.authenticationFailed) {
                try cipher.open(SealedValue(keyID: "a", combined: flipped), context: "member:1")
            }
        }
        #expect(throws: FieldCipherError.authenticationFailed) {
            try cipher.open(SealedValue(keyID: "a", combined: sealed.combined.dropLast()), context: "member:1")
        }
        #expect(throws: FieldCipherError.unknownKey) {
            try cipher.open(SealedValue(keyID: "gone", combined: sealed.combined), context: "member:1")
        }
    }

    @Test("Key configuration errors name the setting, never the key")
    func configurationErrors() {
        let cases: [(String, String)] = [
            ("k1", "aGVsbG8="),
            ("k1=not-base64!", "aGVsbG8="),
            ("k1=aGVsbG8=", "aGVsbG8="),
            ("", "aGVsbG8="),
        ]
        for (keys, index) in cases {
            do {
                _ = try DataProtectionKeys(encryptionKeys: keys, indexKey: index, encryptionSetting: "ENC", indexSetting: "IDX")
                Issue.record("accepted \(keys)")
            } catch {
                #expect(error.description.contains("ENC") || error.description.contains("IDX"))
                #expect(!error.description.contains("aGVsbG8"))
            }
        }
        let generated = DataProtectionKeys.generateText()
        #expect(throws: Never.self) {
            try DataProtectionKeys(encryptionKeys: generated.encryptionKeys, indexKey: generated.indexKey, encryptionSetting: "ENC", indexSetting: "IDX")
        }
    }
}
