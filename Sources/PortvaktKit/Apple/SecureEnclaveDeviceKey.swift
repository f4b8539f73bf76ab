#if canImport(CryptoKit) && canImport(LocalAuthentication)
import CryptoKit
import Foundation
import LocalAuthentication
import PortvaktProtocol

/// The device key in the Secure Enclave: it never leaves the chip, and it signs only after Face
/// ID / Touch ID of the enrolment it was made under (`.biometryCurrentSet`): a new face or finger
/// makes it unusable for good (``BiometricFailure/invalidated``). The Keychain keeps only the
/// enclave's wrapped handle.
public struct SecureEnclaveDeviceKey: DeviceKey {
    private let storage: any SecureStorage
    private static let handle = SecureStorageKey(rawValue: "portvakt_device_key_v1")

    public init(storage: any SecureStorage) {
        self.storage = storage
    }

    public func create() async throws(BiometricFailure) -> DevicePublicKey {
        guard SecureEnclave.isAvailable else { throw .notAvailable }
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(
            nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, [.privateKeyUsage, .biometryCurrentSet], &error
        ) else { throw .notAvailable }
        do {
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access)
            try await storage.write(key.dataRepresentation, for: Self.handle)
            return DevicePublicKey(key.publicKey)
        } catch {
            throw .failed
        }
    }

    public func sign(_ data: Data, reason: String) async throws(BiometricFailure) -> Data {
        let context = LAContext()
        context.localizedReason = reason
        guard let handle = try? await storage.read(Self.handle) else { throw .invalidated }
        do {
            let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: handle, authenticationContext: context)
            return try key.signature(for: data).rawRepresentation
        } catch let error as LAError {
            throw Self.failure(error.code)
        } catch {
            // The enclave refuses a key whose enrolment changed.
            throw .invalidated
        }
    }

    public func delete() async {
        try? await storage.delete(Self.handle)
    }

    public func exists() async -> Bool {
        (try? await storage.read(Self.handle)) != nil
    }

    /// What the device's biometrics can do now.
    public static func availability() -> BiometryAvailability {
        let context = LAContext()
        var error: NSError?
        if context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) {
            return .available(context.biometryType == .faceID ? .face : .fingerprint)
        }
        switch (error as? LAError)?.code {
        case .biometryLockout?: return .lockedOut
        case .biometryNotEnrolled?, .passcodeNotSet?: return .notEnrolled
        default: return .notAvailable
        }
    }

    static func failure(_ code: LAError.Code) -> BiometricFailure {
        switch code {
        case .userCancel, .appCancel, .systemCancel, .userFallback: .cancelled
        case .biometryLockout: .lockout
        case .biometryNotEnrolled, .passcodeNotSet: .notEnrolled
        case .biometryNotAvailable: .notAvailable
        default: .failed
        }
    }
}
#endif
