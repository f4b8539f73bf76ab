import PortvaktCore
import PortvaktHTTP

/// The texts of claiming a membership by an emailed code (S15): keys of the server catalog (`claim.<id>`).
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

    static var catalog: TextCatalog { ServerCatalog.texts }
    static let namespace = "claim"

    /// What the code page says after a code was asked for: the same whether or not the address is on record.
    static func sent(to email: String, _ language: Language) -> String {
        ClaimPhrase.sent.text(language, ["email": email])
    }

    static func wrongCode(triesLeft: Int, _ language: Language) -> String {
        ClaimPhrase.wrongCode.text(language, count: triesLeft)
    }
}

/// The claim's texts that take a value.
enum ClaimPhrase: String, CatalogKeys {
    case sent = "claim_sent"
    case wrongCode = "claim_wrong_code"

    static var catalog: TextCatalog { ServerCatalog.texts }
    static let namespace = "claim"

    var placeholders: Set<String> {
        switch self {
        case .sent: ["email"]
        case .wrongCode: ["count"]
        }
    }
}
