import Foundation
import Logging
import PortvaktCore

extension DataProtectionKeys {
    static let developmentKeyFile = "development-keys.json"

    /// The configured keys, or in development the generated key file in the data directory
    /// (created on first start, readable only by its owner), with a visible warning; the audit
    /// keys from `PORTVAKT_AUDIT_KEY` when set.
    static func load(for configuration: ServerConfiguration, logger: Logger) throws -> DataProtectionKeys {
        var keys = try loadDataKeys(for: configuration, logger: logger)
        if let auditKeys = configuration.auditKeys {
            keys.auditKeys = try AuditKeyRing(text: auditKeys, setting: "PORTVAKT_AUDIT_KEY")
        }
        return keys
    }

    private static func loadDataKeys(for configuration: ServerConfiguration, logger: Logger) throws -> DataProtectionKeys {
        if let encryptionKeys = configuration.encryptionKeys, let indexKey = configuration.indexKey {
            return try DataProtectionKeys(
                encryptionKeys: encryptionKeys, indexKey: indexKey,
                encryptionSetting: "PORTVAKT_ENCRYPTION_KEYS", indexSetting: "PORTVAKT_INDEX_KEY"
            )
        }
        let path = (configuration.dataDirectory as NSString).appendingPathComponent(developmentKeyFile)
        let text = try readOrCreateDevelopmentKeys(at: path)
        logger.warning(
            "USING DEVELOPMENT KEYS: personnummer encryption and token signing use keys generated in the data directory; set PORTVAKT_ENCRYPTION_KEYS and PORTVAKT_INDEX_KEY before real data arrives",
            metadata: ["file": "\(path)"]
        )
        return try DataProtectionKeys(
            encryptionKeys: text.encryptionKeys, indexKey: text.indexKey,
            encryptionSetting: path, indexSetting: path
        )
    }

    private struct DevelopmentKeyFile: Codable {
        var encryptionKeys: String
        var indexKey: String
    }

    private static func readOrCreateDevelopmentKeys(at path: String) throws -> DevelopmentKeyFile {
        if let data = FileManager.default.contents(atPath: path) {
            guard let file = try? JSONDecoder().decode(DevelopmentKeyFile.self, from: data) else {
                throw ConfigurationError("the development key file \(path) is damaged; delete it to generate new keys (data sealed with the old keys is lost)")
            }
            return file
        }
        let generated = generateText()
        let file = DevelopmentKeyFile(encryptionKeys: generated.encryptionKeys, indexKey: generated.indexKey)
        try OwnerOnlyFile.create(try JSONEncoder().encode(file), at: path, what: "development key file")
        return file
    }
}
