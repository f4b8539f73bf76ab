import Foundation
import PortvaktProtocol

extension AuthMachine {
    /// Lock on return (S16.1): after ``AuthContext/lockAfter`` in the background, the home screen
    /// is not shown again before the biometric check, as at launch. Time comes with the events.
    mutating func handleLifecycle(_ event: AuthEvent) -> [AuthEffect] {
        switch event {
        case .enteredBackground(let time):
            context.backgroundedAt = time
            return []
        case .returnedToForeground(let time, let biometry):
            context.biometry = biometry
            guard let since = context.backgroundedAt else { return [] }
            context.backgroundedAt = nil
            // A clock set back while away counts as long enough: the lock errs on the safe side.
            let away = time.timeIntervalSince(since)
            guard case .home = screen, context.deviceKeyEnrolled, away >= context.lockAfter || away < 0 else { return [] }
            return launch()
        default:
            return []
        }
    }
}
