import Foundation
import PortvaktProtocol

extension AuthMachine {
    /// Lock on return (S16.1): after ``AuthContext/lockAfter`` in the background, the home screen
    /// is not shown again before the biometric check, as at launch. Time comes with the events,
    /// on `ContinuousClock`, so setting the device's clock back does not shorten the absence.
    mutating func handleLifecycle(_ event: AuthEvent) -> [AuthEffect] {
        switch event {
        case .enteredBackground(let instant):
            // A second report of the same absence (several scenes) does not restart it.
            if context.backgroundedAt == nil { context.backgroundedAt = instant }
            return []
        case .returnedToForeground(let instant, let biometry, let now):
            context.biometry = biometry
            if let now { context.launchedAt = now }
            guard let since = context.backgroundedAt else { return [] }
            context.backgroundedAt = nil
            guard context.deviceKeyEnrolled, since.duration(to: instant) >= .seconds(context.lockAfter) else { return [] }
            switch screen {
            case .home:
                return launch()
            case .unlocking:
                // The check before the absence does not count for what its answer opens.
                context.lockPending = true
                return []
            default:
                // A login, an order or an enrolment under way is itself a fresh check.
                return []
            }
        default:
            return []
        }
    }
}
