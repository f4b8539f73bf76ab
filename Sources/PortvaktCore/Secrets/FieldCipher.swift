import Crypto
import Foundation

/// Encrypts single fields at rest with AES-256-GCM under named keys, so that keys can rotate:
/// new values are sealed with the active key, and values under older keys still open.
///
/// Every value is bound to a context (what it is and which row it belongs to) as associated data,
/// so a ciphertext copied into another row or column does not open.
public struct FieldCipher: Sendable {
    public struct Key: Sendable {
        public let id: String
        let key: SymmetricKey

        /// - Throws: when the key is not 32 bytes or the id is empty or holds a separator.
        public init(id: String, bytes: some ContiguousBytes) throws(ConfigurationError) {
            let key = SymmetricKey(data: bytes)
            guard key.bitCount == 256 else { throw ConfigurationError("encryption key '\(id)' must be 32 bytes") }
            guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
                throw ConfigurationError("encryption key ids may hold only letters, digits, '-' and '_'")
            }
            self.id = id
            self.key = key
        }
    }

    public let activeKeyID: String
    private let keys: [String: SymmetricKey]

    /// - Parameter keys: the first key seals new values; the others only open older ones.
    public init(keys: [Key]) throws(ConfigurationError) {
        guard let active = keys.first else { throw ConfigurationError("at least one encryption key is needed") }
        var byID: [String: SymmetricKey] = [:]
        for key in keys {
            guard byID.updateValue(key.key, forKey: key.id) == nil else {
                throw ConfigurationError("encryption key id '\(key.id)' is used twice")
            }
        }
        self.activeKeyID = active.id
        self.keys = byID
    }

    /// Seals `plaintext` with the active key, bound to `context`.
    public func seal(_ plaintext: some DataProtocol, context: String) throws -> SealedValue {
        let box = try AES.GCM.seal(plaintext, using: keys[activeKeyID]!, authenticating: Data(context.utf8))
        return SealedValue(keyID: activeKeyID, combined: box.combined!)
    }

    /// Opens a value sealed under any known key; fails when the key is unknown, the value was
    /// tampered with, or it was sealed for another context.
    public func open(_ value: SealedValue, context: String) throws(FieldCipherError) -> Data {
        guard let key = keys[value.keyID] else { throw .unknownKey }
        do {
            let box = try AES.GCM.SealedBox(combined: value.combined)
            return try AES.GCM.open(box, using: key, authenticating: Data(context.utf8))
        } catch {
            throw .authenticationFailed
        }
    }
}

/// Why a sealed value could not be opened. Carries no key or plaintext material.
public enum FieldCipherError: Error, Sendable {
    /// The value names a key id that is no longer (or never was) configured.
    case unknownKey
    /// The ciphertext, its tag or its context does not match.
    case authenticationFailed
}

/// An AES-GCM ciphertext (nonce, ciphertext and tag) with the id of the key that sealed it.
public struct SealedValue: Sendable, Hashable {
    public let keyID: String
    public let combined: Data

    public init(keyID: String, combined: Data) {
        self.keyID = keyID
        self.combined = combined
    }
}
