import PortvaktCore
import PortvaktHTTP

/// The texts of claiming a membership by an emailed code (S15), in Bokmål and English.
enum ClaimText: String, PageTexts {
    case title = "claim_title"
    case intro = "claim_intro"
    case emailLabel = "claim_email_label"
    case sendCode = "claim_send_code"
    case giveUp = "claim_give_up"
    case codeTitle = "claim_code_title"
    case codeLabel = "claim_code_label"
    case confirm = "claim_confirm"
    case sendAgain = "claim_send_again"
    case invalidEmail = "claim_invalid_email"
    case tooManyEmails = "claim_too_many_emails"
    case ended = "claim_ended"
    case codeExpired = "claim_code_expired"
    case sentToYourAddress = "claim_sent_to_your_address"

    func text(_ language: Language) -> String {
        switch self {
        case .title: language.pick("Vi fant deg ikke", "We could not find you")
        case .intro:
            language.pick(
                "Innloggingen gikk bra, men medlemsregisteret har verken fødselsnummeret eller telefonnummeret ditt. Skriv e-postadressen som står på medlemskapet ditt, så sender vi deg en kode.",
                "You signed in, but the membership records hold neither your national identity number nor your phone number. Enter the email address on your membership, and we will send you a code.")
        case .emailLabel: language.pick("E-postadressen på medlemskapet ditt", "The email address on your membership")
        case .sendCode: language.pick("Send kode", "Send code")
        case .giveUp: language.pick("Jeg er ikke medlem – avbryt", "I am not a member – cancel")
        case .codeTitle: language.pick("Skriv koden fra e-posten", "Enter the code from the email")
        case .codeLabel: language.pick("Kode (6 sifre)", "Code (6 digits)")
        case .confirm: language.pick("Bekreft", "Confirm")
        case .sendAgain: language.pick("Send en ny kode", "Send a new code")
        case .invalidEmail: language.pick("Skriv en hel e-postadresse, for eksempel navn@eksempel.no.", "Enter a whole email address, for example name@example.com.")
        case .tooManyEmails:
            language.pick("Vi har sendt for mange koder. Vent litt og prøv igjen, eller kontakt koordinatoren din.",
                          "We have sent too many codes. Wait a little and try again, or contact your coordinator.")
        case .codeExpired:
            language.pick("Koden er eldre enn 10 minutter. Send en ny kode.", "The code is older than 10 minutes. Send a new code.")
        case .sentToYourAddress:
            language.pick("Hvis adressen du skrev står på et medlemskap, har vi sendt en kode dit. Den virker i 10 minutter.",
                          "If the address you entered is on a membership, we have sent a code to it. It works for 10 minutes.")
        case .ended:
            language.pick("Denne koden virker ikke lenger. Logg inn på nytt for å prøve igjen.", "This code no longer works. Log in again to try once more.")
        }
    }

    /// What the code page says after a code was asked for: the same whether or not the address is on record.
    static func sent(to email: String, _ language: Language) -> String {
        language.pick(
            "Hvis \(email) står på et medlemskap, har vi sendt en kode dit. Den virker i 10 minutter.",
            "If \(email) is on a membership, we have sent a code to it. It works for 10 minutes.")
    }

    static func wrongCode(triesLeft: Int, _ language: Language) -> String {
        triesLeft == 1
            ? language.pick("Feil kode. Du har ett forsøk igjen.", "Wrong code. You have one try left.")
            : language.pick("Feil kode. Du har \(triesLeft) forsøk igjen.", "Wrong code. You have \(triesLeft) tries left.")
    }
}
