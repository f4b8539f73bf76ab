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

    func render() -> String {
        let lang = language
        let preselected = TestUsers.user(id: loginHint ?? "")?.id ?? TestUsers.all[0].id
        let people = TestUsers.all.map { user in
            let roles = user.memberships.map { "\($0.organisation.uppercased()) \(RoleText.name($0.role, lang))" }
            let detail = roles.isEmpty ? lang.pick("ikke medlem noe sted", "not a member anywhere") : roles.joined(separator: ", ")
            return """
            <label><input type="radio" name="user" value="\(HTML.escape(user.id))"\(user.id == preselected ? " checked" : "")> \
            \(HTML.escape(user.name)) <span>(\(HTML.escape(detail)))</span></label>
            """
        }.joined(separator: "\n")
        let body = """
        <h1>\(lang.pick("Logg inn med \(provider.displayName)", "Log in with \(provider.displayName)"))</h1>
        <p>\(lang.pick("Tjenesten", "The service")) <strong>\(HTML.escape(clientID))</strong> \
        \(lang.pick("ber om", "asks for")): \(HTML.escape(scopes.joined(separator: ", ")))</p>
        <form method="post" action="\(HTML.escape(formAction))">
        <fieldset>
        <legend>\(lang.pick("Velg testperson", "Choose a test person"))</legend>
        \(people)
        </fieldset>
        <button type="submit" class="primary" name="action" value="approve">\(lang.pick("Godkjenn", "Approve"))</button>
        <button type="submit" class="secondary" name="action" value="cancel">\(lang.pick("Avbryt", "Cancel"))</button>
        </form>
        <p><a href="\(HTML.escape(languageSwitchURL))" lang="\(lang.other.rawValue)" hreflang="\(lang.other.rawValue)">\(lang.pick("English", "Norsk (bokmål)"))</a></p>
        <p>\(lang.pick("Uten nettleser: legg til", "Without a browser: add")) <code>sandbox_user=kari&amp;sandbox_action=approve</code> \
        \(lang.pick("(eller", "(or")) <code>cancel</code>) \(lang.pick("i adressen.", "to the address."))</p>
        """
        return HTML.page(title: lang.pick("Logg inn med \(provider.displayName)", "Log in with \(provider.displayName)"), language: lang, body: body)
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
