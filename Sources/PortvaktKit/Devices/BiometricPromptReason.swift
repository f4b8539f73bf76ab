import PortvaktProtocol

/// What the biometric prompt says (Face ID's `localizedReason`, the CLI's question): why the
/// person is asked, in their language, never the protocol's "unlock" or "step-up".
public enum BiometricPromptReason {
    /// Turning biometric login on (the software key's check when it is made).
    public static func enrolment(_ language: Language) -> String {
        KitText.confirmItIsYouToTurn.text(language)
    }

    public static func text(_ purpose: DevicePurpose, action: StepUpAction? = nil, language: Language) -> String {
        switch (purpose, action) {
        case (.stepUp, .contactsRead?):
            KitText.confirmItIsYouToSee.text(language)
        case (.stepUp, .expensesSubmit?):
            KitText.confirmItIsYouToSubmit.text(language)
        case (.stepUp, .personnummerRead?):
            KitText.confirmItIsYouToSee2.text(language)
        case (.stepUp, .deviceEnrol?):
            enrolment(language)
        case (.stepUp, nil):
            KitText.confirmItIsYouToContinue.text(language)
        case (.unlock, _):
            KitText.confirmItIsYouToOpen.text(language)
        }
    }

    /// The prompt's other button after a failed scan (`LAContext.localizedFallbackTitle`): at
    /// unlock BankID or Vipps, at a step-up the password (S11.3); at enrolment none (an empty
    /// title hides it, and cancelling leaves biometrics off), never a dead "Enter Password".
    public static func fallbackTitle(_ purpose: DevicePurpose?, language: Language) -> String {
        switch purpose {
        case .unlock?: KitText.useBankidOrVipps.text(language)
        case .stepUp?: KitText.usePassword.text(language)
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
