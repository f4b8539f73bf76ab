#if canImport(CryptoKit) && canImport(Security)
import CryptoKit
import Foundation
import PortvaktProtocol
import Security

/// The DPoP proof key in the Secure Enclave: usable after the first unlock since boot, without
/// Face ID or Touch ID (it signs every request), and only on this device. The Keychain keeps
/// only the enclave's wrapped handle. Every decision about proofs is in ``DPoPSigner``.
public actor SecureEnclaveProofKey: ProofKey {
    private static let handle = SecureStorageKey(rawValue: "portvakt_dpop_key_v1")
    private let storage: any SecureStorage
    private var key: SecureEnclave.P256.Signing.PrivateKey?

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
        try? await storage.delete(Self.handle)
    }

    private func loaded() async throws -> SecureEnclave.P256.Signing.PrivateKey {
        if let key { return key }
        if let stored = try await storage.read(Self.handle), let existing = try? SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: stored) {
            key = existing
            return existing
        }
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, [.privateKeyUsage], &error) else {
            throw error!.takeRetainedValue() as Error
        }
        let new = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access)
        try await storage.write(new.dataRepresentation, for: Self.handle)
        key = new
        return new
    }
}
#endif
