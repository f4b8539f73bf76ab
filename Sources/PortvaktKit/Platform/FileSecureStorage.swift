import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Secure storage for Linux (the CLI): one AES-GCM-sealed file per key in a directory only the
/// user can read (0700, files 0600), under a 256-bit key kept in the same directory (0600).
/// It protects against other users and copies of single files, not against the user's own
/// account; Apple platforms use the Keychain instead.
public actor FileSecureStorage: SecureStorage {
    private let directory: URL
    private var key: SymmetricKey?

    public init(directory: URL) {
        self.directory = directory
    }

    public func read(_ storageKey: SecureStorageKey) throws -> Data? {
        let file = url(for: storageKey)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        let box = try AES.GCM.SealedBox(combined: try Data(contentsOf: file))
        return try AES.GCM.open(box, using: try encryptionKey(), authenticating: Data(storageKey.rawValue.utf8))
    }

    public func write(_ value: Data, for storageKey: SecureStorageKey) throws {
        let sealed = try AES.GCM.seal(value, using: try encryptionKey(), authenticating: Data(storageKey.rawValue.utf8)).combined!
        try ownerOnly(sealed, at: url(for: storageKey))
    }

    public func delete(_ storageKey: SecureStorageKey) throws {
        let file = url(for: storageKey)
        if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
    }

    private func url(for key: SecureStorageKey) -> URL {
        directory.appendingPathComponent(key.rawValue + ".sealed")
    }

    private func encryptionKey() throws -> SymmetricKey {
        if let key { return key }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = directory.appendingPathComponent("storage.key")
        let loaded: SymmetricKey
        if let bytes = try? Data(contentsOf: file), bytes.count == 32 {
            loaded = SymmetricKey(data: bytes)
        } else {
            loaded = SymmetricKey(size: .bits256)
            try ownerOnly(loaded.withUnsafeBytes { Data($0) }, at: file)
        }
        key = loaded
        return loaded
    }

    /// Writes atomically with mode 0600 from the first byte.
    private func ownerOnly(_ data: Data, at file: URL) throws {
        let temporary = file.appendingPathExtension("tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        // rename(2) replaces the old file in one step (Foundation's replaceItemAt on Linux can
        // leave neither file behind when it fails).
        guard rename(temporary.path, file.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown)
        }
    }
}
