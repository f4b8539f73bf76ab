import Crypto
import Foundation

/// The keys the audit chain is sealed with (HMAC-SHA256), kept outside the database: whoever can
/// write to the database cannot rewrite the trail's tail and head without the chain noticing.
/// The first key seals new events; every key verifies the events it sealed, by its id.
public struct AuditKeyRing: Sendable {
    public let currentID: String
    private let keys: [String: SymmetricKey]

    /// Reads `id=base64,id=base64` (each key at least 32 bytes; the first seals).
    /// - Throws: ``ConfigurationError`` naming `setting`, never a key.
    public init(text: String, setting: String) throws(ConfigurationError) {
        var keys: [(String, SymmetricKey)] = []
        for entry in text.split(separator: ",") {
            let parts = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, let bytes = Data(base64Encoded: parts[1]), bytes.count >= 32 else {
                throw ConfigurationError("\(setting) must be a list of id=base64 keys of at least 32 bytes, separated by commas")
            }
            keys.append((parts[0], SymmetricKey(data: bytes)))
        }
        guard let first = keys.first else { throw ConfigurationError("\(setting) must name at least one key") }
        self.init(currentID: first.0, keys: Dictionary(keys) { existing, _ in existing })
    }

    /// One key derived from the index key, for installations that set no audit key of their own.
    public init(derivedFrom indexKey: SymmetricKey) {
        self.init(currentID: Self.derivedID, keys: [Self.derivedID: Self.derivedKey(from: indexKey)])
    }

    /// The id of the key derived from the index key.
    public static let derivedID = "index"

    /// The key ``init(derivedFrom:)`` seals with, as a `PORTVAKT_AUDIT_KEY` entry.
    static func derivedEntry(from indexKey: SymmetricKey) -> String {
        "\(derivedID)=" + derivedKey(from: indexKey).withUnsafeBytes { Data($0) }.base64EncodedString()
    }

    private static func derivedKey(from indexKey: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: indexKey, info: Data("portvakt audit chain v1".utf8), outputByteCount: 32)
    }

    private init(currentID: String, keys: [String: SymmetricKey]) {
        self.currentID = currentID
        self.keys = keys
    }

    /// HMAC-SHA256 of `data` under the key `id`; nil when this ring has no such key.
    public func seal(_ data: Data, keyID id: String) -> Data? {
        keys[id].map { Data(HMAC<SHA256>.authenticationCode(for: data, using: $0)) }
    }
}
