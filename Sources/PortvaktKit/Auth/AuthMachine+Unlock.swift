import Foundation
import PortvaktProtocol

extension AuthMachine {
    /// Biometric unlock and its fallbacks (S5, S6).
    mutating func handleUnlock(_ event: AuthEvent) -> [AuthEffect] {
        switch event {
        case .retryUnlock:
            guard case .unlock = screen else { return [] }
            screen = .unlocking
            return [.unlockWithDeviceKey]
        case .unlockSucceeded(let offline):
            guard case .unlocking = screen else { return [] }
            let reset = resetBiometricFailures()
            if context.lockPending {
                context.lockPending = false
                return reset + launch()
            }
            screen = .home(offline ? .offline : nil)
            return reset + (offline ? [] : [.syncOfflineQueue])
        case .unlockFailed(let failure):
            guard case .unlocking = screen else { return [] }
            return unlockFailed(failure)
        case .unlockRefused(let message):
            context.hasSession = false
            // A disabled account is told so (issue 45 item 5); any other refusal means "log in again".
            screen = .methodSelection([.reauthenticationRequired, .accountDisabled].contains(message) ? message : .sessionExpired)
            return [.clearSession]
        case .deviceNotRegistered:
            // Nothing was enrolled, so nothing changed: no "enrolment changed", no logout.
            guard case .unlocking = screen else { return [] }
            context.deviceKeyEnrolled = false
            screen = .launching
            return [.refreshSilently]
        case .useOtherMethod:
            screen = .methodSelection(nil)
            return []
        case .stepUpKeyInvalidated:
            guard isUnlocked, context.deviceKeyEnrolled else { return [] }
            return unlockFailed(.invalidated)
        default:
            return []
        }
    }
}
