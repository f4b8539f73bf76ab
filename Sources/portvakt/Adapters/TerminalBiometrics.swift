import Foundation
import PortvaktKit
import PortvaktProtocol

/// The simulated biometric sensor: answers from `--biometric pass,fail,…` in order, or asks at
/// the terminal. When the script runs out, the user has stopped trying.
actor TerminalBiometrics {
    private var script: [BiometricFailure?]?
    private let language: Language
    /// How many checks were asked for (each is a prompt on a phone).
    private(set) var checks = 0

    init(script: [BiometricFailure?]?, language: Language) {
        self.script = script
        self.language = language
    }

    func check(_ reason: String) -> BiometricFailure? {
        checks += 1
        if script != nil {
            return script!.isEmpty ? .cancelled : script!.removeFirst()
        }
        guard Terminal.isInteractive else { return nil }
        let answer = Terminal.ask(CLIText.simulatedFingerprintReasonYEsN.text(language, ["reason": reason]))
        switch answer.lowercased().first {
        case "y", "j": return nil
        case "n": return .failed
        default: return .cancelled
        }
    }

    /// Whether the user tries again after a miss.
    func wantsAnotherTry() -> Bool {
        if let script { return !script.isEmpty }
        return Terminal.isInteractive && Terminal.confirm(CLIText.tryAgain.text(language))
    }
}
