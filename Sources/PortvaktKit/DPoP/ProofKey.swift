import Crypto
import Foundation
import PortvaktProtocol

/// The device's second key: it signs DPoP proofs (RFC 9449), so tokens work only together with
/// it. Unlike the ``DeviceKey`` it needs no biometric check (it signs every request), but it too
/// never leaves the device: the Secure Enclave on Apple devices, a key sealed in
/// ``FileSecureStorage`` on Linux. Made at the first login, kept across unlocks, deleted at logout.
public protocol ProofKey: Sendable {
    /// The public key, creating the key first when there is none.
    func publicKey() async throws -> DevicePublicKey
    /// The raw 64-byte ES256 signature of `data`.
    func sign(_ data: Data) async throws -> Data
    func delete() async
}

/// A software P-256 proof key kept in `storage` (the Linux CLI, tests).
public actor SoftwareProofKey: ProofKey {
    static let storageKey = SecureStorageKey(rawValue: "portvakt_dpop_key_v1")
    private let storage: any SecureStorage
    private var key: P256.Signing.PrivateKey?
    /// The first use's read-or-create, which every use meanwhile waits for: the actor lets a
    /// second caller in at each storage await, and without this two first uses made two keys.
    private var loading: Task<P256.Signing.PrivateKey, any Error>?

    public init(storage: any SecureStorage) {
        self.storage = storage
    }

    public func publicKey() async throws -> DevicePublicKey {
        DevicePublicKey(try await loaded().publicKey)
    }

    public func sign(_ data: Data) async throws -> Data {
        try await loaded().signature(for: data).rawRepresentation
    }

    public func delete() async {
        key = nil
        try? await storage.delete(Self.storageKey)
    }

    private func loaded() async throws -> P256.Signing.PrivateKey {
        if let key { return key }
        let task = loading ?? Task { [storage] in try await Self.readOrCreate(in: storage) }
        loading = task
        do {
            let loaded = try await task.value
            loading = nil
            key = loaded
            return loaded
        } catch {
            loading = nil
            throw error
        }
    }

    private static func readOrCreate(in storage: any SecureStorage) async throws -> P256.Signing.PrivateKey {
        if let stored = try await storage.read(storageKey), let existing = try? P256.Signing.PrivateKey(rawRepresentation: stored) {
            return existing
        }
        let new = P256.Signing.PrivateKey()
        try await storage.write(new.rawRepresentation, for: storageKey)
        return new
    }
}
