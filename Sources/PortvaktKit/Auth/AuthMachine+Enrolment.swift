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
        default:
            return []
        }
    }
}
