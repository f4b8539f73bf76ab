import PortvaktCore
import PortvaktHTTP

/// Every text of the sandbox's pages, in the sandbox catalog (Bokmål and English). Templates name them as `t.<id>`.
enum SandboxText: String, PageTexts {
    case sandbox = "sandbox"
    case banner = "banner"
    case logInWith = "log_in_with"
    case theService = "the_service"
    case asksFor = "asks_for"
    case chooseTestPerson = "choose_test_person"
    case approve = "approve"
    case cancel = "cancel"
    case withoutBrowserAdd = "without_browser_add"
    case orOpen = "or_open"
    case toTheAddress = "to_the_address"
    case bankIDApp = "bankid_app"
    case bankIDAppSimulated = "bankid_app_simulated"
    case serviceAsksIdentify = "service_asks_identify"
    case qrText = "qr_text"
    case identify = "identify"

    static var catalog: TextCatalog { SandboxCatalog.texts }
    static let namespace = "sandbox"
}
