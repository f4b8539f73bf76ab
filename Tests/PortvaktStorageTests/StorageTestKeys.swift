import Crypto
import Foundation
import PortvaktCore

enum StorageTestKeys {
    static func cipher() throws -> FieldCipher {
        try FieldCipher(keys: [FieldCipher.Key(id: "test", bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })])
    }

    static func vault() throws -> PersonnummerVault {
        try PersonnummerVault(cipher: cipher(), indexKey: Data(repeating: 3, count: 32))
    }
}
