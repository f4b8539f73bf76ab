import PortvaktCore
import PortvaktHTTP

/// The simulated provider's login page: pick a test person, approve or cancel.
struct LoginPage {
    let provider: SandboxProvider
    let clientID: String
    let scopes: [String]
    let language: Language
    /// OIDC `login_hint`: the test person to preselect (by id), as a real provider fills in the user.
    let loginHint: String?
    /// The authorize URL with its original query, which the form posts back to.
    let formAction: String
    /// The address of this page in another language.
    let switchLanguage: (Language) -> String
    let stylesheet: String

    func render() -> String {
        let lang = language
        let preselected = TestUsers.user(id: loginHint ?? "")?.id ?? TestUsers.all[0].id
        let people = TestUsers.all.map { user in
            let roles = user.memberships.map { "\($0.organisation.uppercased()) \(RoleText.name($0.role, lang))" }
            let detail = roles.isEmpty ? SandboxPhrase.notAMemberAnywhere.text(lang) : roles.joined(separator: ", ")
            return SandboxLoginView.Person(id: user.id, name: user.name, detail: detail, checked: user.id == preselected)
        }
        return SandboxPages.shared.render("sandbox_login", language: lang, stylesheet: stylesheet, values: SandboxLoginView(
            provider: provider.displayName, clientID: clientID, scopes: scopes.joined(separator: ", "), formAction: formAction,
            people: people, languages: LanguageLink.links(from: lang, offering: SandboxCatalog.languages, switchLanguage)
        ))
    }
}

/// What `sandbox_login` reads.
struct SandboxLoginView: PageValues {
    let provider: String
    let clientID: String
    /// The scopes asked for, in one line.
    let scopes: String
    let formAction: String
    let people: [Person]
    let languages: [LanguageLink]

    /// A test person to choose; `detail` says their memberships.
    struct Person: PageValues {
        let id: String
        let name: String
        let detail: String
        let checked: Bool
    }
}

/// Role names as people read them.
enum RoleText {
    static func name(_ role: Role, _ language: Language) -> String {
        switch role {
        case .peerMentor: SandboxPhrase.peerMentor.text(language)
        case .coordinator: SandboxPhrase.coordinator.text(language)
        case .orgAdmin: SandboxPhrase.administrator.text(language)
        }
    }
}
