#if canImport(Security)
import Foundation
import Security

/// ``SecureStorage`` in the Keychain: generic passwords of one service, each as readable as
/// its ``SecureStorageKey/accessibility`` says, only on this device and never in backups.
/// Writes update in place and add only when absent, so a crash never leaves a rotated refresh
/// token or the offline queue deleted and not yet written.
public struct KeychainStorage: SecureStorage {
    public let service: String
    /// A shared Keychain access group (`keychain-access-groups`), or nil for the app's own.
    public let accessGroup: String?

    public init(service: String = PortvaktPlatform.keychainService(bundleIdentifier: Bundle.main.bundleIdentifier), accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    public func read(_ key: SecureStorageKey) async throws -> Data? {
        var query = base(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        // errSecInteractionNotAllowed (locked, or before the first unlock) and the rest are thrown:
        // a failure to retry, never "not there".
        guard status == errSecSuccess else { throw KeychainError(status: status) }
        return result as? Data
    }

    public func write(_ value: Data, for key: SecureStorageKey) async throws {
        let attributes: [String: Any] = [kSecValueData as String: value, kSecAttrAccessible as String: Self.accessible(key.accessibility)]
        var status = SecItemUpdate(base(key) as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            status = SecItemAdd(base(key).merging(attributes) { $1 } as CFDictionary, nil)
            // Added meanwhile by another thread of this app: update that one.
            if status == errSecDuplicateItem { status = SecItemUpdate(base(key) as CFDictionary, attributes as CFDictionary) }
        }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
    }

    public func delete(_ key: SecureStorageKey) async throws {
        let status = SecItemDelete(base(key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }

    /// Every item of this service and access group: SecItemDelete deletes all items that match.
    public func deleteAll() async throws {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecUseDataProtectionKeychain as String: true,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }

    static func accessible(_ accessibility: StorageAccessibility) -> CFString {
        switch accessibility {
        case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .whenPasscodeSet: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        }
    }

    private func base(_ key: SecureStorageKey) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: key.rawValue,
            // iOS behaves so always; on macOS it selects the same (data protection) Keychain.
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }
}

public struct KeychainError: Error, Sendable, Hashable {
    public let status: OSStatus
}

extension InstallMarker {
    /// A flag in `UserDefaults`, which an uninstall deletes while Keychain items stay.
    public static func userDefaults(key: String = "no.portvakt.sdk.installed") -> InstallMarker {
        InstallMarker(
            isFirstRun: { !UserDefaults.standard.bool(forKey: key) },
            markInstalled: { UserDefaults.standard.set(true, forKey: key) }
        )
    }
}
#endif
