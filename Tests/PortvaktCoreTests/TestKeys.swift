import Crypto
import Foundation
import PortvaktCore

/// Random keys for one test.
enum TestKeys {
    static func cipherKey(_ id: String) throws -> FieldCipher.Key {
        try FieldCipher.Key(id: id, bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
    }

    static func vault(keyIDs: [String] = ["k1"]) throws -> PersonnummerVault {
        try PersonnummerVault(cipher: FieldCipher(keys: keyIDs.map(cipherKey)), indexKey: Data(repeating: 7, count: 32))
    }
}
