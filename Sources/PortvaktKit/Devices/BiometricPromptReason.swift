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
        case (.stepUp, nil):
            language.pick("Bekreft at det er deg for å fortsette", "Confirm it is you to continue")
        case (.unlock, _):
            language.pick("Bekreft at det er deg for å åpne appen", "Confirm it is you to open the app")
        }
    }
}
