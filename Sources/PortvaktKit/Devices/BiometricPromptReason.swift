import PortvaktProtocol

/// What the biometric prompt says (Face ID's `localizedReason`, the CLI's question): why the
/// person is asked, in their language, never the protocol's "unlock" or "step-up".
public enum BiometricPromptReason {
    /// Turning biometric login on (the software key's check when it is made).
    public static func enrolment(_ language: Language) -> String {
        language.pick("Bekreft at det er deg for å slå på innlogging med ansikt eller fingeravtrykk", "Confirm it is you to turn on sign-in with face or fingerprint")
    }

    public static func text(_ purpose: DevicePurpose, action: StepUpAction? = nil, language: Language) -> String {
        switch (purpose, action) {
        case (.stepUp, .contactsRead?):
            language.pick("Bekreft at det er deg for å se kontaktopplysningene", "Confirm it is you to see the contact details")
        case (.stepUp, .expensesSubmit?):
            language.pick("Bekreft at det er deg for å sende inn utlegget", "Confirm it is you to submit the expense claim")
        case (.stepUp, .personnummerRead?):
            language.pick("Bekreft at det er deg for å se fødselsnummeret", "Confirm it is you to see the national identity number")
        case (.stepUp, .deviceEnrol?):
            enrolment(language)
        case (.stepUp, nil):
            language.pick("Bekreft at det er deg for å fortsette", "Confirm it is you to continue")
        case (.unlock, _):
            language.pick("Bekreft at det er deg for å åpne appen", "Confirm it is you to open the app")
        }
    }

    /// The prompt's other button after a failed scan (`LAContext.localizedFallbackTitle`): at
    /// unlock BankID or Vipps, at a step-up the password (S11.3); at enrolment none (an empty
    /// title hides it, and cancelling leaves biometrics off), never a dead "Enter Password".
    public static func fallbackTitle(_ purpose: DevicePurpose?, language: Language) -> String {
        switch purpose {
        case .unlock?: language.pick("Bruk BankID eller Vipps", "Use BankID or Vipps")
        case .stepUp?: language.pick("Bruk passord", "Use password")
        case nil: ""
        }
    }
}

/// One biometric prompt: why it is shown and what its other button says, both in the person's
/// language and decided here, so the platform's prompt (Face ID, the CLI's question) only shows them.
public struct BiometricPrompt: Sendable, Hashable {
    public let reason: String
    /// Empty: no other button.
    public let fallbackTitle: String

    public init(reason: String, fallbackTitle: String) {
        self.reason = reason
        self.fallbackTitle = fallbackTitle
    }

    /// Turning biometric login on: the one prompt of an enrolment.
    public static func enrolment(_ language: Language) -> BiometricPrompt {
        BiometricPrompt(reason: BiometricPromptReason.enrolment(language), fallbackTitle: BiometricPromptReason.fallbackTitle(nil, language: language))
    }

    public static func signing(_ purpose: DevicePurpose, action: StepUpAction? = nil, language: Language) -> BiometricPrompt {
        BiometricPrompt(
            reason: BiometricPromptReason.text(purpose, action: action, language: language),
            fallbackTitle: BiometricPromptReason.fallbackTitle(purpose, language: language)
        )
    }
}
