import Foundation
import PortvaktProtocol

extension AuthMachine {
    /// Offering and enrolling a device key for biometric unlock (S4).
    mutating func handleEnrolment(_ event: AuthEvent) -> [AuthEffect] {
        switch event {
        case .enrolmentAccepted:
            guard case .enrolmentOffer(.some) = screen else { return [] }
            screen = .enrolling
            return [.enrolDeviceKey]
        case .enrolmentDeclined:
            guard case .enrolmentOffer = screen else { return [] }
            screen = .home(takePendingNotice())
            return []
        case .enrolmentFinished(let failure):
            guard case .enrolling = screen else { return [] }
            context.replacingDeviceKey = false
            if let failure {
                // A cancelled or missed prompt just leaves biometrics off; other failures say why.
                let notice = takePendingNotice()
                screen = .home([.cancelled, .fallbackChosen, .failed].contains(failure) ? notice : Self.message(for: failure))
            } else if case .available(let kind) = context.biometry {
                context.deviceKeyEnrolled = true
                // A notice the server tells once wins over the confirmation (settings show that too).
                screen = .home(takePendingNotice() ?? kind.enabledMessage)
            }
            return []
        case .enrolmentNeedsConfirmation(let passwordAccepted):
            guard case .enrolling = screen else { return [] }
            context.enrolmentPasswordAccepted = passwordAccepted
            context.replacingDeviceKey = false
            screen = .enrolmentConfirmation(passwordFirst: passwordAccepted && context.lastMethod == .password, message: nil)
            return []
        case .enrolmentConfirmationRefused(let message):
            guard case .enrolling = screen else { return [] }
            screen = .enrolmentConfirmation(passwordFirst: true, message: message)
            return []
        case .enrolmentPasswordSubmitted:
            guard case .enrolmentConfirmation = screen, context.enrolmentPasswordAccepted, case .available = context.biometry else { return [] }
            screen = .enrolling
            return [.enrolDeviceKey]
        case .enrolmentRefused(let message):
            guard case .enrolling = screen else { return [] }
            context.replacingDeviceKey = false
            context.deviceKeyEnrolled = false
            context.pendingNotice = nil
            screen = .home(message)
            return [.deleteDeviceKey]
        default:
            return []
        }
    }

    /// S9.5: a notice the server tells once (a personnummer it could not retrieve) is shown on the
    /// home screen; one that arrives during the enrolment offer waits for it.
    mutating func noticeArrived(_ notice: UserMessage) -> [AuthEffect] {
        switch screen {
        // It says more than a confirmation that Face ID is on (settings show that too).
        case .home(nil), .home(.faceIDEnabled?), .home(.fingerprintEnabled?): screen = .home(notice)
        case .enrolmentOffer, .enrolling: context.pendingNotice = notice
        default: break
        }
        return []
    }

    mutating func takePendingNotice() -> UserMessage? {
        defer { context.pendingNotice = nil }
        return context.pendingNotice
    }
}
