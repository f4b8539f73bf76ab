#if canImport(CryptoKit) && canImport(LocalAuthentication)
import CryptoKit
import Foundation
import LocalAuthentication
import PortvaktProtocol

/// The device key in the Secure Enclave: it never leaves the chip, and it signs only after Face
/// ID / Touch ID of the enrolment it was made under (`.biometryCurrentSet`). The Keychain keeps
/// the enclave's wrapped handle (passcode-bound) and the enrolment's state. Every decision, what
/// an error means, whether the enrolment changed, is ``BiometricErrors``' and
/// ``BiometricEnrolment``'s; this only calls Apple's API.
public struct SecureEnclaveDeviceKey: DeviceKey {
    private let storage: any SecureStorage

    public init(storage: any SecureStorage) {
        self.storage = storage
    }

    /// One prompt (the enrolment's "when they complete the biometric challenge"), then the key.
    public func create(prompt: BiometricPrompt) async throws(BiometricFailure) -> DevicePublicKey {
        guard SecureEnclave.isAvailable else { throw .notAvailable }
        let context = try await Self.evaluated(prompt)
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(
            nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, [.privateKeyUsage, .biometryCurrentSet], &error
        ) else { throw .passcodeNotSet }
        do {
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access, authenticationContext: context)
            try await storage.write(key.dataRepresentation, for: .deviceKeyHandle)
            if let state = Self.enrolmentState(context) { try await storage.write(state, for: .biometricEnrolment) }
            return DevicePublicKey(key.publicKey)
        } catch {
            let error = error as NSError
            throw BiometricErrors.failure(domain: error.domain, code: error.code)
        }
    }

    public func sign(_ data: Data, prompt: BiometricPrompt) async throws(BiometricFailure) -> Data {
        let handle = try await BiometricErrors.storedHandle { try await storage.read(.deviceKeyHandle) }.get()
        // A record that cannot be read now (the phone locked) is not an unknown enrolment, which
        // would let a passing refusal of the enclave delete the key: try again later.
        let recorded: Data?
        do { recorded = try await storage.read(.biometricEnrolment) } catch { throw BiometricFailure.unavailableNow }
        let context = try await Self.evaluated(prompt)
        let current = Self.enrolmentState(context)
        let verdict = BiometricEnrolment.verdict(enrolledUnder: recorded, now: current)
        do {
            // The context has evaluated the policy: the enclave signs without a second prompt.
            let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: handle, authenticationContext: context)
            let signature = try key.signature(for: data).rawRepresentation
            if BiometricEnrolment.shouldRecord(after: verdict), let current { try? await storage.write(current, for: .biometricEnrolment) }
            return signature
        } catch {
            let error = error as NSError
            throw BiometricEnrolment.enclaveRefusal(domain: error.domain, code: error.code, after: verdict)
        }
    }

    public func delete() async {
        try? await storage.delete(.deviceKeyHandle)
        try? await storage.delete(.biometricEnrolment)
    }

    public func exists() async -> Bool {
        ((try? await storage.read(.deviceKeyHandle)) ?? nil) != nil
    }

    /// What the device's biometrics can do now. Without a Secure Enclave (the Simulator) no key
    /// can be made, so enrolment is not offered.
    public static func availability() -> BiometryAvailability {
        guard SecureEnclave.isAvailable else { return .notAvailable }
        let context = LAContext()
        var error: NSError?
        guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else {
            let hardwarePresent = context.biometryType != .none
            return error.map { BiometricErrors.availability(domain: $0.domain, code: $0.code, hardwarePresent: hardwarePresent) } ?? .notAvailable
        }
        return .available(context.biometryType == .faceID ? .face : .fingerprint)
    }

    /// Face ID / Touch ID with the prompt's texts; the evaluated context, for the enclave.
    private static func evaluated(_ prompt: BiometricPrompt) async throws(BiometricFailure) -> LAContext {
        let context = LAContext()
        context.localizedFallbackTitle = prompt.fallbackTitle
        do {
            _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: prompt.reason)
            return context
        } catch {
            let error = error as NSError
            throw BiometricErrors.failure(domain: error.domain, code: error.code)
        }
    }

    /// The enrolment's state after an evaluation: iOS 18's `domainState.biometry.stateHash`,
    /// before it `evaluatedPolicyDomainState` (kinds 2 and 1, never compared with each other).
    private static func enrolmentState(_ context: LAContext) -> Data? {
        if #available(iOS 18.0, macOS 15.0, *) {
            return BiometricEnrolment.record(context.domainState.biometry.stateHash, kind: 2)
        }
        return BiometricEnrolment.record(context.evaluatedPolicyDomainState, kind: 1)
    }
}
#endif
