import Crypto
import Foundation

/// The secret keys for data at rest, as read from configuration or the development key file.
public struct DataProtectionKeys: Sendable {
    public let vault: PersonnummerVault
    /// The root of the keys per purpose (``key(for:)``): the index key.
    private let root: SymmetricKey

    /// Seals the audit chain: derived from the index key unless configured on its own.
    public var auditKeys: AuditKeyRing

    public var cipher: FieldCipher { vault.cipher }

    /// Reads `id=base64,id=base64` encryption keys (the first one seals) and a base64 index key.
    /// - Throws: ``ConfigurationError`` naming `encryptionSetting` or `indexSetting`, never a key.
    public init(encryptionKeys: String, indexKey: String, encryptionSetting: String, indexSetting: String) throws(ConfigurationError) {
        var keys: [FieldCipher.Key] = []
        for entry in encryptionKeys.split(separator: ",") {
            let parts = entry.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let bytes = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)) else {
                throw ConfigurationError("\(encryptionSetting) must be a list of id=base64 keys separated by commas")
            }
            do {
                keys.append(try FieldCipher.Key(id: parts[0].trimmingCharacters(in: .whitespaces), bytes: bytes))
            } catch {
                throw ConfigurationError("\(encryptionSetting): \(error.description)")
            }
        }
        guard let index = Data(base64Encoded: indexKey.trimmingCharacters(in: .whitespaces)) else {
            throw ConfigurationError("\(indexSetting) must be base64")
        }
        auditKeys = AuditKeyRing(derivedFrom: SymmetricKey(data: index))
        root = SymmetricKey(data: index)
        do {
            vault = try PersonnummerVault(cipher: FieldCipher(keys: keys), indexKey: index)
        } catch {
            throw ConfigurationError("\(error.description) (\(encryptionSetting), \(indexSetting))")
        }
    }

    /// Fresh random keys in the same text form, for a development key file.
    public static func generateText() -> (encryptionKeys: String, indexKey: String) {
        func random() -> String { SymmetricKey(size: .bits256).withUnsafeBytes { Data($0).base64EncodedString() } }
        let id = "dev-\(Int(Date().timeIntervalSince1970))"
        return ("\(id)=\(random())", random())
    }

    /// What a derived key is for; its raw value is the HKDF `info`.
    public enum KeyPurpose: String, Sendable, CaseIterable {
        /// Each refresh token's successor, so that a repeat inside the grace window gets the same
        /// successor without the server storing any token in the clear.
        case refreshTokenSuccessor = "portvakt refresh-token successor v1"
        /// The portal's CSRF tokens and confirmations (HMACs of the session cookie).
        case portalCSRF = "portvakt portal csrf v2"
        /// The DPoP nonces every instance hands out and accepts (RFC 9449 §8).
        case dpopNonce = "portvakt dpop nonce v2"
        /// The cookie that binds a membership claim to the browser that started it, and the
        /// signature of the address its code page shows.
        case browserBinding = "portvakt browser binding v1"
        /// The login throttles' keys (HMACs of addresses, emails and identities), so that the
        /// stored rows cannot be matched by hashing a guess.
        case throttleKeys = "portvakt throttle keys v1"
        /// Names the index key in the database (``indexKeyFingerprint``) without revealing it.
        case indexKeyFingerprint = "portvakt index key fingerprint v1"
    }

    /// Which index key this is, as the database records it: a value derived from it, not the key.
    public var indexKeyFingerprint: String {
        key(for: .indexKeyFingerprint).withUnsafeBytes { Data($0.prefix(16)) }.hexEncoded()
    }

    /// The `PORTVAKT_AUDIT_KEY` entry (`index=base64`) of the audit key derived from this index
    /// key: kept there, the events it sealed still verify after the index key changes.
    public var derivedAuditKeyEntry: String { AuditKeyRing.derivedEntry(from: root) }

    /// One key per purpose, derived from the root with HKDF (RFC 5869) under the purpose's name:
    /// a key that leaks from one use opens nothing of another.
    public func key(for purpose: KeyPurpose) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: root, info: Data(purpose.rawValue.utf8), outputByteCount: 32)
    }
}
