import Foundation

/// What the platform's biometric and key errors mean, by error domain and code. The Apple
/// adapters pass every error here (`NSError.domain`, `.code`); nothing is decided from "any
/// other error", so a locked device or a busy Keychain never deletes a key or a session.
public enum BiometricErrors {
    /// `LAErrorDomain`.
    public static let localAuthenticationDomain = "com.apple.LocalAuthentication"
    /// Security framework results (`OSStatus`), as `NSOSStatusErrorDomain` errors.
    public static let osStatusDomain = "NSOSStatusErrorDomain"

    /// `LAError.Code` values (LAError.h).
    enum LocalAuthenticationCode: Int {
        case authenticationFailed = -1, userCancel = -2, userFallback = -3, systemCancel = -4, passcodeNotSet = -5
        case biometryNotAvailable = -6, biometryNotEnrolled = -7, biometryLockout = -8, appCancel = -9, invalidContext = -10
        case biometryNotPaired = -12, biometryDisconnected = -13
        case notInteractive = -1004
    }

    /// `OSStatus` values (SecBase.h).
    enum SecurityStatus: Int {
        case userCanceled = -128, authFailed = -25293, itemNotFound = -25300, interactionNotAllowed = -25308
    }

    /// Why a prompt or a signature failed.
    public static func failure(domain: String, code: Int) -> BiometricFailure {
        switch domain {
        case localAuthenticationDomain:
            switch LocalAuthenticationCode(rawValue: code) {
            case .userCancel?, .appCancel?, .systemCancel?: return .cancelled
            case .userFallback?: return .fallbackChosen
            case .authenticationFailed?: return .failed
            case .biometryLockout?: return .lockout
            case .biometryNotEnrolled?: return .notEnrolled
            case .passcodeNotSet?: return .passcodeNotSet
            case .biometryNotAvailable?, .biometryNotPaired?, .biometryDisconnected?: return .notAvailable
            // A context used up, no interaction allowed now (in the background), or a code this
            // SDK does not know: nothing is lost, try again.
            case .invalidContext?, .notInteractive?, nil: return .unavailableNow
            }
        case osStatusDomain:
            switch SecurityStatus(rawValue: code) {
            case .userCanceled?: return .cancelled
            case .authFailed?: return .failed
            // The key's handle is there but the enclave no longer knows the key.
            case .itemNotFound?: return .invalidated
            case .interactionNotAllowed?, nil: return .unavailableNow
            }
        default:
            return .unavailableNow
        }
    }

    /// What `canEvaluatePolicy` failing with this error says about the device. `hardwarePresent`
    /// is the context's `biometryType` (set whatever the call returned) not being `.none`: "not
    /// available" on a phone with Face ID is Face ID turned off for this app.
    public static func availability(domain: String, code: Int, hardwarePresent: Bool = false) -> BiometryAvailability {
        guard domain == localAuthenticationDomain else { return .notAvailable }
        switch LocalAuthenticationCode(rawValue: code) {
        case .biometryLockout?: return .lockedOut
        case .biometryNotEnrolled?: return .notEnrolled
        case .passcodeNotSet?: return .passcodeNotSet
        case .biometryNotAvailable? where hardwarePresent: return .offForThisApp
        default: return .notAvailable
        }
    }

    /// The outcome of reading a key's stored handle before signing: only a read that finds
    /// nothing means the key is gone; a read that throws (a locked device, the Keychain not yet
    /// available at a background launch) is a failure to retry.
    public static func storedHandle(_ read: () async throws -> Data?) async -> Result<Data, BiometricFailure> {
        do {
            guard let handle = try await read() else { return .failure(.invalidated) }
            return .success(handle)
        } catch {
            return .failure(.unavailableNow)
        }
    }
}

/// The biometric enrolment a device key was made under, compared before each signature: a face
/// or finger added or removed since (Apple's `LAContext` domain state changed) makes the key
/// unusable for good, as `.biometryCurrentSet` does in the Secure Enclave.
public enum BiometricEnrolment {
    public enum Verdict: Sendable, Hashable {
        /// The same faces or fingers as at enrolment.
        case unchanged
        /// The state differs: someone's face or finger was added or removed, or the OS was updated.
        case changed
        /// One side is not known (a key made before this was recorded, biometrics that cannot
        /// say now, or a state of another kind): the signature itself decides, and a success
        /// records the state.
        case unknown
    }

    /// A recorded state: its kind (iOS 18's `domainState.biometry.stateHash`, or the earlier
    /// `evaluatedPolicyDomainState`, which are never compared with each other) and its bytes.
    public static func record(_ state: Data?, kind: UInt8) -> Data? {
        guard let state, !state.isEmpty else { return nil }
        return Data([kind]) + state
    }

    public static func verdict(enrolledUnder recorded: Data?, now current: Data?) -> Verdict {
        guard let recorded, let current, recorded.count > 1, current.count > 1, recorded.first == current.first else { return .unknown }
        return recorded == current ? .unchanged : .changed
    }

    /// What a failed signature means after the verdict. Apple warns that the state can change
    /// with a major OS update although no one changed a face or finger, so a changed state alone
    /// deletes nothing: the key still signs then (and the new state is recorded). A key that
    /// fails after a changed state is the enrolment change `.biometryCurrentSet` enforces, whatever
    /// error the enclave gives for it; the person's own cancel stays a cancel.
    public static func signingFailure(_ mapped: BiometricFailure, after verdict: Verdict) -> BiometricFailure {
        guard verdict == .changed else { return mapped }
        switch mapped {
        case .cancelled, .fallbackChosen, .lockout, .passcodeNotSet, .notEnrolled: return mapped
        default: return .invalidated
        }
    }

    /// What the enclave refusing to sign means after Face ID succeeded: a LocalAuthentication
    /// answer (a person's own cancel) means what it says. Any other refusal is the key made
    /// unusable (`.biometryCurrentSet`) only when the enrolment changed or cannot be compared;
    /// under the enrolment the key was made with, it is what the error says (the phone locking
    /// between prompt and signature, `errSecInteractionNotAllowed`, is "try again"), so only a
    /// key the Keychain no longer finds is gone.
    public static func enclaveRefusal(domain: String, code: Int, after verdict: Verdict) -> BiometricFailure {
        let mapped = BiometricErrors.failure(domain: domain, code: code)
        if domain == BiometricErrors.localAuthenticationDomain { return signingFailure(mapped, after: verdict) }
        return verdict == .unchanged ? mapped : .invalidated
    }

    /// Whether to record the state after a successful signature (first time, or after an OS update).
    public static func shouldRecord(after verdict: Verdict) -> Bool { verdict != .unchanged }
}
