import PortvaktCore
import PortvaktHTTP

/// Every text of the sandbox's pages, in Bokmål and English. Templates name them as `t.<id>`.
enum SandboxText: String, PageTexts {
    case sandbox = "sandbox"
    case banner = "banner"
    case logInWith = "log_in_with"
    case theService = "the_service"
    case asksFor = "asks_for"
    case chooseTestPerson = "choose_test_person"
    case approve = "approve"
    case cancel = "cancel"
    case otherLanguage = "other_language"
    case withoutBrowserAdd = "without_browser_add"
    case orOpen = "or_open"
    case toTheAddress = "to_the_address"
    case bankIDApp = "bankid_app"
    case bankIDAppSimulated = "bankid_app_simulated"
    case serviceAsksIdentify = "service_asks_identify"
    case qrText = "qr_text"
    case identify = "identify"

    func text(_ language: Language) -> String {
        switch self {
        case .sandbox: language.pick("Sandkasse", "Sandbox")
        case .banner:
            language.pick(
                "SANDKASSE – dette er ikke ekte BankID eller Vipps. Bare syntetiske testpersoner.",
                "SANDBOX – this is not the real BankID or Vipps. Synthetic test people only."
            )
        case .logInWith: language.pick("Logg inn med", "Log in with")
        case .theService: language.pick("Tjenesten", "The service")
        case .asksFor: language.pick("ber om", "asks for")
        case .chooseTestPerson: language.pick("Velg testperson", "Choose a test person")
        case .approve: language.pick("Godkjenn", "Approve")
        case .cancel: language.pick("Avbryt", "Cancel")
        case .otherLanguage: language.pick("English", "Norsk (bokmål)")
        case .withoutBrowserAdd: language.pick("Uten nettleser: legg til", "Without a browser: add")
        case .orOpen: language.pick("(eller ", "(or ")
        case .toTheAddress: language.pick("i adressen.", "to the address.")
        case .bankIDApp: language.pick("BankID-appen", "The BankID app")
        case .bankIDAppSimulated: language.pick("BankID-appen (simulert)", "The BankID app (simulated)")
        case .serviceAsksIdentify: language.pick("En tjeneste ber deg identifisere deg med BankID.", "A service asks you to identify yourself with BankID.")
        case .qrText: language.pick("Teksten i QR-koden (begynner med «bankid.»)", "The QR code's text (starts with “bankid.”)")
        case .identify: language.pick("Identifiser", "Identify")
        }
    }
}
