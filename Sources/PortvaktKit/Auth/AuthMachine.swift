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

    public private(set) var screen: AuthScreen
    public private(set) var context: AuthContext

    public init(context: AuthContext) {
        screen = .launching
        self.context = context
    }

    /// Applies `event` and returns what to do.
    public mutating func handle(_ event: AuthEvent) -> [AuthEffect] {
        switch event {
        case .launched(let context):
            self.context = context
            return launch()

        case .methodChosen(let method):
            switch method {
            case .bankIDOrder:
                screen = .bankIDOrder(BankIDOrderProgress())
                return [.startBankIDOrder]
            case .bankID, .vipps, .password:
                screen = .browser(method)
                return [.openBrowser(method)]
            }
        case .browserReturnedCode:
            screen = .completingLogin
            return [.exchangeCode]
        case .browserCancelled:
            guard case .browser(let method) = screen else { return [] }
            screen = .methodSelection(method.cancelledMessage)
            return [.clearVerifier]
        case .browserFailed(let message):
            screen = .methodSelection(message)
            return [.clearVerifier]
        case .loginFailed(let message):
            screen = .methodSelection(message)
            return [.clearVerifier]
        case .loginCompleted:
            context.hasSession = true
            context.biometricFailures = 0
            return offerEnrolment()

        case .orderStarted(let launchURL, let time):
            guard case .bankIDOrder = screen else { return [.cancelBankIDOrder] }
            screen = .bankIDOrder(BankIDOrderProgress(startedAt: time))
            return [.storeBankIDSessionRef, .openBankIDApp(launchURL), .pollBankIDOrder]
        case .bankIDAppOpened(let opened):
            guard case .bankIDOrder(var progress) = screen, !opened else { return [] }
            progress.showsQRCode = true
            screen = .bankIDOrder(progress)
            return []
        case .orderPending(let text):
            guard case .bankIDOrder(var progress) = screen else { return [] }
            progress.message = text
            screen = .bankIDOrder(progress)
            return []
        case .orderCompleted:
            guard case .bankIDOrder = screen else { return [] }
            screen = .completingLogin
            return [.stopPollingBankIDOrder, .clearBankIDSessionRef, .exchangeCode]
        case .orderFailed(let message):
            guard case .bankIDOrder = screen else { return [] }
            screen = .methodSelection(message)
            return [.stopPollingBankIDOrder, .clearBankIDSessionRef]
        case .tick(let now):
            guard case .bankIDOrder(let progress) = screen, let started = progress.startedAt,
                  now.timeIntervalSince(started) >= Self.bankIDOrderLimit
            else { return [] }
            screen = .methodSelection(.bankIDExpired)
            return [.stopPollingBankIDOrder, .cancelBankIDOrder, .clearBankIDSessionRef]
        case .cancelTapped:
            return cancel()

        case .enrolmentAccepted:
            guard case .enrolmentOffer(.some) = screen else { return [] }
            screen = .enrolling
            return [.enrolDeviceKey]
        case .enrolmentDeclined:
            guard case .enrolmentOffer = screen else { return [] }
            screen = .home(nil)
            return []
        case .enrolmentFinished(let failure):
            guard case .enrolling = screen else { return [] }
            if let failure {
                // A cancelled or missed prompt just leaves biometrics off; other failures say why.
                screen = .home([.cancelled, .failed].contains(failure) ? nil : Self.message(for: failure))
            } else if case .available(let kind) = context.biometry {
                context.deviceKeyEnrolled = true
                screen = .home(kind.enabledMessage)
            }
            return []
        case .enrolmentRefused(let message):
            guard case .enrolling = screen else { return [] }
            screen = .home(message)
            return [.deleteDeviceKey]

        case .retryUnlock:
            guard case .unlock = screen else { return [] }
            screen = .unlocking
            return [.unlockWithDeviceKey]
        case .unlockSucceeded(let offline):
            guard case .unlocking = screen else { return [] }
            context.biometricFailures = 0
            screen = .home(offline ? .offline : nil)
            return offline ? [] : [.syncOfflineQueue]
        case .unlockFailed(let failure):
            guard case .unlocking = screen else { return [] }
            return unlockFailed(failure)
        case .unlockRefused(let message):
            context.hasSession = false
            screen = .methodSelection(message == .reauthenticationRequired ? .reauthenticationRequired : .sessionExpired)
            return [.clearSession]
        case .useOtherMethod:
            screen = .methodSelection(nil)
            return []

        case .silentRefreshSucceeded:
            guard case .launching = screen else { return [] }
            screen = .home(nil)
            return [.syncOfflineQueue]
        case .silentRefreshUnavailable:
            guard case .launching = screen else { return [] }
            context.online = false
            screen = .home(.offline)
            return []
        case .sessionExpired:
            context.hasSession = false
            screen = .methodSelection(.sessionExpired)
            return [.clearSession]

        case .settingsEnableBiometrics:
            guard context.hasSession, !context.deviceKeyEnrolled else { return [] }
            guard case .available = context.biometry else {
                if context.biometry == .notEnrolled { screen = .enrolmentOffer(nil) }
                return []
            }
            screen = .enrolling
            return [.enrolDeviceKey]
        case .settingsDisableBiometrics:
            // S7.2: the key and the stored session go at once; this run stays signed in.
            guard context.deviceKeyEnrolled else { return [] }
            context.deviceKeyEnrolled = false
            context.hasSession = false
            return [.deleteDeviceKey, .forgetStoredSession]
        case .settingsReEnrol:
            guard context.hasSession, case .available = context.biometry else { return [] }
            context.deviceKeyEnrolled = false
            screen = .enrolling
            return [.deleteDeviceKey, .enrolDeviceKey]

        case .logout:
            context.hasSession = false
            context.deviceKeyEnrolled = false
            screen = .methodSelection(nil)
            return [.stopPollingBankIDOrder, .clearBankIDSessionRef, .deleteDeviceKey, .clearSession]
        case .networkChanged(let online):
            let wasOffline = !context.online
            context.online = online
            guard online, wasOffline, case .home = screen else { return [] }
            return [.syncOfflineQueue]
        }
    }

    /// S5.1, S8.1: an enrolled user goes straight to the biometric prompt; a session without a
    /// device key resumes silently; without a session, the method selection.
    private mutating func launch() -> [AuthEffect] {
        guard context.hasSession else {
            screen = .methodSelection(nil)
            return []
        }
        guard context.deviceKeyEnrolled else {
            screen = .launching
            return [.refreshSilently]
        }
        switch context.biometry {
        case .available:
            screen = .unlocking
            return [.unlockWithDeviceKey]
        case .lockedOut:
            screen = .biometricFallback(.biometricLockedOut)
        case .notEnrolled:
            screen = .biometricFallback(.biometricsNotSetUp)
        case .notAvailable:
            screen = .biometricFallback(.biometricsNotAvailable)
        }
        return []
    }

    /// S4.1, S4.4, S4.5, S6.4: after a login, offer biometrics once per app session, unless a key
    /// is there already or the device has no biometrics at all.
    private mutating func offerEnrolment() -> [AuthEffect] {
        guard !context.deviceKeyEnrolled, !context.offeredEnrolment else {
            screen = .home(nil)
            return [.syncOfflineQueue]
        }
        switch context.biometry {
        case .available(let kind):
            context.offeredEnrolment = true
            screen = .enrolmentOffer(kind)
        case .notEnrolled:
            context.offeredEnrolment = true
            screen = .enrolmentOffer(nil)
        case .notAvailable, .lockedOut:
            screen = .home(nil)
        }
        return [.syncOfflineQueue]
    }

    /// S6: cancel keeps the unlock screen; a miss counts, the third sends to BankID/Vipps; lockout
    /// and a changed enrolment go to the fallback at once (the stale key is deleted).
    private mutating func unlockFailed(_ failure: BiometricFailure) -> [AuthEffect] {
        switch failure {
        case .cancelled:
            screen = .unlock(nil)
        case .failed:
            context.biometricFailures += 1
            screen = context.biometricFailures >= Self.biometricFailureLimit
                ? .biometricFallback(.tooManyBiometricFailures) : .unlock(.biometricFailed)
        case .lockout:
            screen = .biometricFallback(.biometricLockedOut)
        case .invalidated:
            context.deviceKeyEnrolled = false
            screen = .methodSelection(.biometricEnrolmentChanged)
            return [.deleteDeviceKey]
        case .notEnrolled:
            screen = .biometricFallback(.biometricsNotSetUp)
        case .notAvailable:
            screen = .biometricFallback(.biometricsNotAvailable)
        }
        return []
    }

    /// S3.8: cancelling an order cancels it at the server and clears the session reference.
    private mutating func cancel() -> [AuthEffect] {
        switch screen {
        case .bankIDOrder:
            screen = .methodSelection(nil)
            return [.stopPollingBankIDOrder, .cancelBankIDOrder, .clearBankIDSessionRef]
        case .browser(let method):
            screen = .methodSelection(method.cancelledMessage)
            return [.clearVerifier]
        case .unlocking:
            screen = .unlock(nil)
            return []
        default:
            return []
        }
    }

    static func message(for failure: BiometricFailure) -> UserMessage {
        switch failure {
        case .cancelled, .failed: .biometricFailed
        case .lockout: .biometricLockedOut
        case .invalidated: .biometricEnrolmentChanged
        case .notEnrolled: .biometricsNotSetUp
        case .notAvailable: .biometricsNotAvailable
        }
    }
}
