import Crypto
import Foundation
import PortvaktCore
import Testing

@Suite("Keys per purpose")
struct KeyPurposeTests {
    @Test("Each purpose has its own key from the same configuration; the same configuration gives the same keys on every instance")
    func onePerPurpose() throws {
        let text = DataProtectionKeys.generateText()
        let keys = try DataProtectionKeys(encryptionKeys: text.encryptionKeys, indexKey: text.indexKey, encryptionSetting: "e", indexSetting: "i")
        let again = try DataProtectionKeys(encryptionKeys: text.encryptionKeys, indexKey: text.indexKey, encryptionSetting: "e", indexSetting: "i")
        let derived = DataProtectionKeys.KeyPurpose.allCases.map { keys.key(for: $0).withUnsafeBytes { Data($0) } }
        #expect(Set(derived).count == DataProtectionKeys.KeyPurpose.allCases.count)
        #expect(DataProtectionKeys.KeyPurpose.allCases.map { again.key(for: $0).withUnsafeBytes { Data($0) } } == derived)
        // The refresh tokens' successors keep their derivation, so a deployment does not change them.
        let index = try #require(Data(base64Encoded: text.indexKey))
        let v1 = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: index), info: Data("portvakt refresh-token successor v1".utf8), outputByteCount: 32)
        #expect(keys.key(for: .refreshTokenSuccessor) == v1)
    }
}
