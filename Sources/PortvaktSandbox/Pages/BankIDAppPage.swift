import PortvaktCore
import PortvaktHTTP

/// The page that plays the user's BankID app: open an order by autostart token (same device) or
/// by the QR code's text (another device), then approve as a test person or cancel.
struct BankIDAppPage {
    /// The order's autostart token when the app was opened by deep link; nil shows the QR field.
    let autoStartToken: String?
    let redirect: String?
    let formAction: String
    let language: Language
    let stylesheet: String
    var problem: String? = nil

    func render() -> String {
        // Preselected: the first person an order login finds by personnummer on a fresh server.
        let preselected = TestUsers.all.first { !$0.memberships.isEmpty && $0.memberships.allSatisfy { $0.recorded == .same } }?.id
        let people = TestUsers.all.map { BankIDAppView.Person(id: $0.id, name: $0.name, checked: $0.id == preselected) }
        let values = BankIDAppView(formAction: formAction, people: people, autoStartToken: autoStartToken, redirect: redirect, problem: problem)
        return SandboxPages.shared.render("sandbox_bankid_app", language: language, stylesheet: stylesheet, values: values)
    }
}

/// What `sandbox_bankid_app` reads.
struct BankIDAppView: PageValues {
    let formAction: String
    let people: [Person]
    /// nil: the page asks for the QR code's text instead.
    let autoStartToken: String?
    let redirect: String?
    let problem: String?

    struct Person: PageValues {
        let id: String
        let name: String
        let checked: Bool
    }
}
