import Foundation
import PortvaktProtocol

/// A sensitive view (decrypted contact details, an expense claim) behind a step-up (S11), as pure
/// transitions like ``AuthMachine``: nothing is revealed before the device key has signed the
/// action's challenge (or the password has been entered again, S11.3) and the server has answered
/// with an elevated token, and the content hides again when that token expires.
public struct StepUpGate: Sendable, Hashable {
    public enum State: Sendable, Hashable {
        /// Nothing shown; a message says why when a step-up did not work.
        case hidden(UserMessage?)
        /// The biometric prompt is up (the key is signing the challenge).
        case prompting
        /// The password field is shown; a message says why when the last try did not work.
        case enteringPassword(UserMessage?)
        /// The password is with the server.
        case checkingPassword
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
        /// The user chose the password instead of biometrics.
        case usePassword
        /// The user submitted the password field (the view keeps the text, never the gate).
        case passwordSubmitted
        /// "Keep showing" while the content is about to hide: a new step-up while it still shows.
        case extend
        case back
    }

    public enum Effect: Sendable, Hashable {
        /// Sign a step-up challenge for the action with the device key (the prompt), redeem it.
        case stepUp(StepUpAction)
        /// Send the password field's text for the action (`POST /v1/step-up/password`).
        case stepUpWithPassword(StepUpAction)
        case deleteDeviceKey
        case close
    }

    public let action: StepUpAction
    /// Whether this phone can confirm with biometrics (a device key and working biometrics);
    /// without, the password is the way (S11.3).
    public let biometricsUsable: Bool
    public private(set) var state: State = .hidden(nil)
    /// The content shown hides within ``closingNotice``: said first, so a screen-reader user is
    /// not left reading something that vanishes.
    public private(set) var closesSoon = false
    /// WCAG 2.2 2.2.1: at least 20 seconds' warning, with a simple way to extend (``Event/extend``).
    public static let closingNotice: TimeInterval = 20

    public init(action: StepUpAction, biometricsUsable: Bool = true) {
        self.action = action
        self.biometricsUsable = biometricsUsable
    }

    public var isRevealed: Bool {
        if case .revealed = state { return true }
        return false
    }

    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .opened:
            guard case .hidden = state else { return [] }
            guard biometricsUsable else {
                state = .enteringPassword(nil)
                return []
            }
            state = .prompting
            return [.stepUp(action)]
        case .succeeded(let expiresAt):
            guard state == .prompting || state == .checkingPassword else { return [] }
            state = .revealed(until: expiresAt)
            closesSoon = false
            return []
        case .failed(let failure):
            guard state == .prompting else { return [] }
            // The prompt's "Use password" (S11.3).
            if failure == .fallbackChosen {
                state = .enteringPassword(nil)
                return []
            }
            // S11.3: cancel or failure keeps it hidden; password and back are offered.
            state = .hidden(failure == .cancelled ? nil : AuthMachine.message(for: failure))
            return failure == .invalidated ? [.deleteDeviceKey] : []
        case .refused(let message):
            switch state {
            case .prompting: state = .hidden(message)
            // A wrong password may be typed again (the server counts the tries); any other
            // refusal (no password, the session ended) is not helped by typing.
            case .checkingPassword:
                state = [.wrongPassword, .tooManyAttempts].contains(message) ? .enteringPassword(message) : .hidden(message)
            default: break
            }
            return []
        case .tick(let now):
            guard case .revealed(let until) = state else { return [] }
            if now >= until {
                state = .hidden(.stepUpRequired)
                closesSoon = false
            } else if until.timeIntervalSince(now) <= Self.closingNotice {
                closesSoon = true
            }
            return []
        case .usePassword:
            guard case .hidden = state else { return [] }
            state = .enteringPassword(nil)
            return []
        case .passwordSubmitted:
            guard case .enteringPassword = state else { return [] }
            state = .checkingPassword
            return [.stepUpWithPassword(action)]
        case .extend:
            guard case .revealed = state else { return [] }
            closesSoon = false
            guard biometricsUsable else {
                state = .enteringPassword(nil)
                return []
            }
            state = .prompting
            return [.stepUp(action)]
        case .back:
            state = .hidden(nil)
            closesSoon = false
            return [.close]
        }
    }
}
