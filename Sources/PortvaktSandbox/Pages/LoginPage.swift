import PortvaktCore

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
    let languageSwitchURL: String
    let stylesheet: String

    func render() -> String {
        let lang = language
        let preselected = TestUsers.user(id: loginHint ?? "")?.id ?? TestUsers.all[0].id
        let people: [[String: Any]] = TestUsers.all.map { user in
            let roles = user.memberships.map { "\($0.organisation.uppercased()) \(RoleText.name($0.role, lang))" }
            let detail = roles.isEmpty ? lang.pick("ikke medlem noe sted", "not a member anywhere") : roles.joined(separator: ", ")
            return ["id": user.id, "name": user.name, "detail": detail, "checked": user.id == preselected]
        }
        return SandboxPages.shared.render("sandbox_login", language: lang, stylesheet: stylesheet, values: [
            "provider": provider.displayName, "clientID": clientID, "scopes": scopes.joined(separator: ", "), "formAction": formAction,
            "people": people, "languageSwitchURL": languageSwitchURL,
        ])
    }
}

/// Role names as people read them.
enum RoleText {
    static func name(_ role: Role, _ language: Language) -> String {
        switch role {
        case .peerMentor: language.pick("likeperson", "peer mentor")
        case .coordinator: language.pick("koordinator", "coordinator")
        case .orgAdmin: language.pick("administrator", "administrator")
        }
    }
}
