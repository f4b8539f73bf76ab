import Crypto
import Foundation
import Personnummer

/// Protects personnummer at rest: AES-GCM ciphertext to read them back, and a keyed HMAC blind
/// index to look them up and to make them unique in the database without storing the digits.
///
/// The blind index key is separate from the encryption keys: rotating it means recomputing every
/// index, so it has no key id and is meant to live as long as the data.
public struct PersonnummerVault: Sendable {
    public let cipher: FieldCipher
    private let indexKey: SymmetricKey

    public init(cipher: FieldCipher, indexKey: some ContiguousBytes) throws(ConfigurationError) {
        let key = SymmetricKey(data: indexKey)
        guard key.bitCount >= 256 else { throw ConfigurationError("the blind index key must be at least 32 bytes") }
        self.cipher = cipher
        self.indexKey = key
    }

    /// Seals the digits, bound to the record that holds them (for example `member:<id>`).
    public func seal(_ number: Personnummer, record: String) throws -> SealedValue {
        try cipher.seal(Data(number.digits.utf8), context: Self.context(record))
    }

    /// Seals and indexes a personnummer for storage in `record`.
    public func protect(_ number: Personnummer, record: String) throws -> ProtectedPersonnummer {
        ProtectedPersonnummer(sealed: try seal(number, record: record), index: blindIndex(number))
    }

    /// Opens a sealed personnummer of `record`. The digits were valid when sealed, so they are
    /// re-read in the test context: a synthetic sandbox number opens as well as a real one.
    public func open(_ value: SealedValue, record: String) throws -> Personnummer {
        let data = try cipher.open(value, context: Self.context(record))
        return try Personnummer(String(decoding: data, as: UTF8.self), context: .test)
    }

    /// The lookup key for a personnummer: hex HMAC-SHA256 of its digits.
    public func blindIndex(_ number: Personnummer) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(number.digits.utf8), using: indexKey).hexEncoded()
    }

    /// The context (associated data) the digits of `record` are sealed with.
    public static func context(_ record: String) -> String { "personnummer:v1:\(record)" }
}
