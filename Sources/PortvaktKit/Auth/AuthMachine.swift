import Foundation
import PortvaktProtocol

/// The whole login journey as pure transitions: the current screen and context plus an event
/// give the next screen and context and the effects to carry out. No I/O and no clock of its
/// own (time comes in with events), so every story is a test on Linux.
public struct AuthMachine: Sendable, Hashable {
    /// Failed biometric attempts before BankID/Vipps is offered instead (DESIGN.md; the OS's
    /// own lockout after five is separate).
    public static let biometricFailureLimit = 3
    /// A BankID order without a result by then has failed.
    public static let bankIDOrderLimit: TimeInterval = 180

    public internal(set) var screen: AuthScreen
    public internal(set) var context: AuthContext

    public init(context: AuthContext) {
        screen = .launching
        self.context = context
    }

    /// The person is past the login or the biometric check in this run: the app's content may
    /// show, and requests and step-ups may use the session.
    public var isUnlocked: Bool {
        switch screen {
        case .home, .enrolmentOffer, .enrolling, .enrolmentConfirmation: true
        default: false
        }
    }

    /// Applies `event` and returns what to do.
    public mutating func handle(_ event: AuthEvent) -> [AuthEffect] {
        let effects = route(event)
        // A question asked in the settings does not outlive the session, nor a lock, it was asked in.
        if !context.hasSession || awaitsBiometricCheck {
            context.confirmingBiometricsOff = false
            context.enrolsAfterLogin = false
        }
        return effects
    }

    /// The biometric check is due and not passed: the unlock screen, its prompt, or its fallback.
    /// Nothing behind the lock (the settings included) answers until it is passed.
    public var awaitsBiometricCheck: Bool {
        switch screen {
        case .unlock, .unlocking, .biometricFallback: true
        default: context.lockPending
        }
    }

    /// Each journey's events go to its own handler.
    private mutating func route(_ event: AuthEvent) -> [AuthEffect] {
        switch event {
        case .launched(let context):
            self.context = context
            return launch()
        case .methodChosen, .browserReturnedCode, .browserCancelled, .browserFailed, .loginFailed, .loginCompleted:
            return handleLogin(event)
        case .orderStarted, .orderResumed, .bankIDAppOpened, .orderPending, .orderCompleted, .orderFailed, .tick, .qrFrameArrived:
            return handleBankIDOrder(event)
        case .cancelTapped:
            return cancel()
        case .enrolmentAccepted, .enrolmentDeclined, .enrolmentFinished, .enrolmentRefused, .enrolmentNeedsConfirmation, .enrolmentPasswordSubmitted,
             .enrolmentConfirmationRefused:
            return handleEnrolment(event)
        case .retryUnlock, .unlockSucceeded, .unlockFailed, .unlockRefused, .deviceNotRegistered, .useOtherMethod, .stepUpKeyInvalidated:
            return handleUnlock(event)
        case .silentRefreshSucceeded, .silentRefreshUnavailable, .sessionExpired, .logout, .networkChanged:
            return handleSession(event)
        case .settingsEnableBiometrics, .settingsDisableRequested, .settingsDisableBiometrics, .settingsDisableCancelled, .settingsReEnrol:
            return handleSettings(event)
        case .enteredBackground, .returnedToForeground:
            return handleLifecycle(event)
        case .noticeArrived(let notice):
            return noticeArrived(notice)
        }
    }

    /// S5.1, S8.1: an enrolled user goes straight to the biometric prompt; a session without a
    /// device key resumes silently; without a session, the method selection.
    mutating func launch() -> [AuthEffect] {
        guard context.hasSession else {
            screen = .methodSelection(nil)
            return []
        }
        // S16.3: a session or a device trust known to have lapsed is not worth a prompt.
        if let now = context.launchedAt, let lapse = context.deviceKeyEnrolled ? context.deviceTrustEndsAt : context.sessionEndsAt, now >= lapse {
            context.hasSession = false
            // A device key whose trust lapsed needs BankID or Vipps, and says so.
            screen = .methodSelection(context.deviceKeyEnrolled ? .reauthenticationRequired : .sessionExpired)
            return [.clearSession]
        }
        guard context.deviceKeyEnrolled else {
            screen = .launching
            return [.refreshSilently]
        }
        switch context.biometry {
        case .available where context.biometricFailures >= Self.biometricFailureLimit:
            // S16.2: three misses stay three misses after a relaunch; no prompt until a login.
            screen = .biometricFallback(.tooManyBiometricFailures)
        case .available:
            screen = .unlocking
            return [.unlockWithDeviceKey]
        case .lockedOut:
            screen = .biometricFallback(.biometricLockedOut)
        case .notEnrolled:
            screen = .biometricFallback(.biometricsNotSetUp)
        case .passcodeNotSet:
            screen = .biometricFallback(.passcodeNotSet)
        case .notAvailable:
            screen = .biometricFallback(.biometricsNotAvailable)
        case .offForThisApp:
            screen = .biometricFallback(.biometricsOffForThisApp)
        }
        return []
    }

    /// A success starts the count of failed biometric attempts over, in storage too.
    mutating func resetBiometricFailures() -> [AuthEffect] {
        guard context.biometricFailures != 0 else { return [] }
        context.biometricFailures = 0
        return [.storeBiometricFailures(0)]
    }

    /// S4.1, S4.4, S4.5, S6.4: after a login, offer biometrics once per app session, unless a key
    /// is there already or the device has no biometrics at all.
    mutating func offerEnrolment() -> [AuthEffect] {
        guard !context.deviceKeyEnrolled, !context.offeredEnrolment else {
            screen = .home(nil)
            return [.syncOfflineQueue]
        }
        switch context.biometry {
        case .available(let kind):
            context.offeredEnrolment = true
            screen = .enrolmentOffer(kind)
        case .notEnrolled, .passcodeNotSet, .offForThisApp:
            context.offeredEnrolment = true
            screen = .enrolmentOffer(nil)
        case .notAvailable, .lockedOut:
            screen = .home(nil)
        }
        return [.syncOfflineQueue]
    }

    /// S6: cancel keeps the unlock screen; a miss counts, the third sends to BankID/Vipps; lockout
    /// and a changed enrolment go to the fallback at once (the stale key is deleted).
    mutating func unlockFailed(_ failure: BiometricFailure) -> [AuthEffect] {
        switch failure {
        case .cancelled:
            screen = .unlock(nil)
        case .fallbackChosen:
            screen = .methodSelection(nil)
        case .failed:
            context.biometricFailures += 1
            screen = context.biometricFailures >= Self.biometricFailureLimit
                ? .biometricFallback(.tooManyBiometricFailures) : .unlock(.biometricFailed)
            return [.storeBiometricFailures(context.biometricFailures)]
        case .lockout:
            screen = .biometricFallback(.biometricLockedOut)
        case .invalidated:
            // Someone may have added their face or finger: the session goes with the key, or a
            // relaunch (offline, where the device cannot be revoked) would resume it silently.
            context.deviceKeyEnrolled = false
            context.hasSession = false
            screen = .methodSelection(.biometricEnrolmentChanged)
            return [.deleteDeviceKey, .clearSession]
        case .notEnrolled:
            screen = .biometricFallback(.biometricsNotSetUp)
        case .passcodeNotSet:
            screen = .biometricFallback(.passcodeNotSet)
        case .notAvailable:
            screen = .biometricFallback(.biometricsNotAvailable)
        case .unavailableNow:
            // A locked device or a background launch: nothing is deleted and nothing counted.
            screen = .unlock(.biometricsUnavailableNow)
        }
        return []
    }

    /// S3.8: cancelling an order cancels it at the server and clears the session reference.
    mutating func cancel() -> [AuthEffect] {
        switch screen {
        case .bankIDOrder:
            loginAbandoned(nil)
            return [.stopPollingBankIDOrder, .cancelBankIDOrder, .clearBankIDSessionRef]
        case .browser(let method):
            loginAbandoned(method.cancelledMessage)
            return [.clearVerifier]
        case .enrolmentConfirmation:
            screen = .home(nil)
            return []
        case .unlocking:
            screen = .unlock(nil)
            return []
        default:
            return []
        }
    }

    /// A login that did not complete: the method selection, or home again for a member who was
    /// confirming the enrolment of biometrics and is still signed in.
    mutating func loginAbandoned(_ message: UserMessage?) {
        if context.enrolsAfterLogin, context.hasSession {
            context.enrolsAfterLogin = false
            screen = .home(message)
        } else {
            screen = .methodSelection(message)
        }
    }

    static func message(for failure: BiometricFailure) -> UserMessage {
        switch failure {
        case .cancelled, .fallbackChosen, .failed: .biometricFailed
        case .lockout: .biometricLockedOut
        case .invalidated: .biometricEnrolmentChanged
        case .notEnrolled: .biometricsNotSetUp
        case .passcodeNotSet: .passcodeNotSet
        case .notAvailable: .biometricsNotAvailable
        case .unavailableNow: .biometricsUnavailableNow
        }
    }
}
