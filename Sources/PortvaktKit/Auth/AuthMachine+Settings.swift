import Foundation
import PortvaktProtocol

extension AuthMachine {
    /// The biometric settings (S7).
    mutating func handleSettings(_ event: AuthEvent) -> [AuthEffect] {
        // A settings view left on screen behind the lock cannot re-enrol a new face past it.
        guard !awaitsBiometricCheck else { return [] }
        switch event {
        case .settingsEnableBiometrics:
            guard context.hasSession, !context.deviceKeyEnrolled else { return [] }
            guard case .available = context.biometry else {
                if [.notEnrolled, .offForThisApp].contains(context.biometry) { screen = .enrolmentOffer(nil) }
                return []
            }
            screen = .enrolling
            return [.enrolDeviceKey]
        case .settingsDisableRequested:
            guard context.deviceKeyEnrolled else { return [] }
            context.confirmingBiometricsOff = true
            return []
        case .settingsDisableCancelled:
            context.confirmingBiometricsOff = false
            return []
        case .settingsDisableBiometrics:
            // S7.2: once confirmed, the key and the stored session go at once; this run stays signed in.
            guard context.deviceKeyEnrolled, context.confirmingBiometricsOff else { return [] }
            context.confirmingBiometricsOff = false
            context.deviceKeyEnrolled = false
            context.hasSession = false
            return [.deleteDeviceKey, .forgetStoredSession]
        case .settingsReEnrol:
            guard context.hasSession, case .available = context.biometry else { return [] }
            // The driver deletes the key in place once the new one may be made (not before a
            // confirmation, which would leave the member with neither).
            context.replacingDeviceKey = true
            screen = .enrolling
            return [.enrolDeviceKey]
        default:
            return []
        }
    }
}
