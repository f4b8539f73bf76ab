#if canImport(CryptoKit) && canImport(Security)
import CryptoKit
import Foundation
import Security

extension ProofKeyMaker {
    /// The DPoP proof key in the Secure Enclave: usable after the first unlock since boot,
    /// without Face ID or Touch ID (it signs every request), only on this device; the Keychain
    /// keeps only the enclave's wrapped handle. Where the enclave is missing (Apple says to ask
    /// `SecureEnclave.isAvailable`; some Simulators have none) the key is a software one,
    /// ``ProofKeyMaker/Protection/software``.
    public static var secureEnclaveOrSoftware: ProofKeyMaker {
        SecureEnclave.isAvailable ? secureEnclave : software
    }

    static let secureEnclave = ProofKeyMaker(
        protection: .secureEnclave,
        create: {
            var error: Unmanaged<CFError>?
            guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, [.privateKeyUsage], &error) else {
                throw error.map { $0.takeRetainedValue() as Error } ?? KeychainError(status: errSecParam)
            }
            return enclaveKey(try SecureEnclave.P256.Signing.PrivateKey(accessControl: access))
        },
        restore: { enclaveKey(try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: $0)) }
    )

    private static func enclaveKey(_ key: SecureEnclave.P256.Signing.PrivateKey) -> Made {
        let held = EnclaveKey(key: key)
        return Made(publicKey: DevicePublicKey(key.publicKey), stored: key.dataRepresentation) { try held.key.signature(for: $0).rawRepresentation }
    }
}

/// The enclave key is an immutable reference to a key inside the chip; CryptoKit does not mark
/// it Sendable.
private struct EnclaveKey: @unchecked Sendable {
    let key: SecureEnclave.P256.Signing.PrivateKey
}
#endif
