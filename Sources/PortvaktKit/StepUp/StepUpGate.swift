import Foundation
import PortvaktProtocol

/// A sensitive view (decrypted contact details, an expense claim) behind a biometric step-up
/// (S11), as pure transitions like ``AuthMachine``: nothing is revealed before the device key has
/// signed the action's challenge and the server has answered with an elevated token, and the
/// content hides again when that token expires.
public struct StepUpGate: Sendable, Hashable {
    public enum State: Sendable, Hashable {
        /// Nothing shown; a message says why when a step-up did not work.
        case hidden(UserMessage?)
        /// The biometric prompt is up (the key is signing the challenge).
        case prompting
        /// The content is shown until the elevated token expires.
        case revealed(until: Date)
    }

    public enum Event: Sendable, Hashable {
        /// The user opened the view (or submits the claim).
        case opened
        case succeeded(expiresAt: Date)
        case failed(BiometricFailure)
        /// The server refused the assertion or could not be reached.
        case refused(UserMessage)
        case tick(Date)
        case usePassword
        case back
    }

    public enum Effect: Sendable, Hashable {
        /// Sign a step-up challenge for the action with the device key (the prompt), redeem it.
        case stepUp(StepUpAction)
        /// The password fallback: a fresh login in the browser, then the view is opened again.
        case openPasswordLogin
        case deleteDeviceKey
        case close
    }

    public let action: StepUpAction
    public private(set) var state: State = .hidden(nil)

    public init(action: StepUpAction) {
        self.action = action
    }

    public var isRevealed: Bool {
        if case .revealed = state { return true }
        return false
    }

    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .opened:
            guard !isRevealed, state != .prompting else { return [] }
            state = .prompting
            return [.stepUp(action)]
        case .succeeded(let expiresAt):
            guard state == .prompting else { return [] }
            state = .revealed(until: expiresAt)
            return []
        case .failed(let failure):
            guard state == .prompting else { return [] }
            // S11.3: cancel or failure keeps it hidden; password and back are offered.
            state = .hidden(failure == .cancelled ? nil : AuthMachine.message(for: failure))
            return failure == .invalidated ? [.deleteDeviceKey] : []
        case .refused(let message):
            guard state == .prompting else { return [] }
            state = .hidden(message)
            return []
        case .tick(let now):
            guard case .revealed(let until) = state, now >= until else { return [] }
            state = .hidden(.stepUpRequired)
            return []
        case .usePassword:
            guard !isRevealed else { return [] }
            return [.openPasswordLogin]
        case .back:
            state = .hidden(nil)
            return [.close]
        }
    }
}
