#if canImport(Security)
import Foundation
import Security

/// ``SecureStorage`` in the Keychain: generic passwords of one service, readable only while the
/// device has a passcode and only on this device (`WhenPasscodeSetThisDeviceOnly`), never in
/// backups.
public struct KeychainStorage: SecureStorage {
    public let service: String

    public init(service: String = "no.portvakt.sdk") {
        self.service = service
    }

    public func read(_ key: SecureStorageKey) async throws -> Data? {
        var query = base(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
        return result as? Data
    }

    public func write(_ value: Data, for key: SecureStorageKey) async throws {
        SecItemDelete(base(key) as CFDictionary)
        var item = base(key)
        item[kSecValueData as String] = value
        item[kSecAttrAccessible as String] = kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        let status = SecItemAdd(item as CFDictionary, nil)
        guard status == errSecSuccess else { throw KeychainError(status: status) }
    }

    public func delete(_ key: SecureStorageKey) async throws {
        let status = SecItemDelete(base(key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }

    /// Keychain items outlive an uninstall; a fresh install must not resume an old session.
    /// Call at launch: deletes this service's items the first time this install runs.
    public func wipeIfFreshInstall(defaults: UserDefaults = .standard) {
        let marker = "no.portvakt.sdk.installed"
        guard !defaults.bool(forKey: marker) else { return }
        SecItemDelete([kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service] as CFDictionary)
        defaults.set(true, forKey: marker)
    }

    private func base(_ key: SecureStorageKey) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: key.rawValue]
    }
}

public struct KeychainError: Error, Sendable, Hashable {
    public let status: OSStatus
}
#endif
