import PortvaktCore
/// The page that plays the user's BankID app: open an order by autostart token (same device) or
/// by the QR code's text (another device), then approve as a test person or cancel.
struct BankIDAppPage {
    /// The order's autostart token when the app was opened by deep link; nil shows the QR field.
    let autoStartToken: String?
    let redirect: String?
    let formAction: String
    let language: Language
    var problem: String? = nil

    func render() -> String {
        let lang = language
        // Preselected: the first person an order login finds by personnummer on a fresh server.
        let preselected = TestUsers.all.first { !$0.memberships.isEmpty && $0.memberships.allSatisfy { $0.recorded == .same } }?.id
        let people = TestUsers.all.map { user in
            """
            <label><input type="radio" name="user" value="\(HTML.escape(user.id))"\(user.id == preselected ? " checked" : "")> \(HTML.escape(user.name))</label>
            """
        }.joined(separator: "\n")
        let orderField: String
        if let autoStartToken {
            orderField = "<input type=\"hidden\" name=\"autostarttoken\" value=\"\(HTML.escape(autoStartToken))\">"
        } else {
            orderField = """
            <label for="qr">\(lang.pick("Teksten i QR-koden (begynner med «bankid.»)", "The QR code's text (starts with “bankid.”)"))</label>
            <input type="text" id="qr" name="qr" autocomplete="off" required>
            """
        }
        let redirectField = redirect.map { "<input type=\"hidden\" name=\"redirect\" value=\"\(HTML.escape($0))\">" } ?? ""
        let problemText = problem.map { "<p class=\"error\" role=\"alert\">\(HTML.escape($0))</p>" } ?? ""
        let body = """
        <h1>\(lang.pick("BankID-appen (simulert)", "The BankID app (simulated)"))</h1>
        \(problemText)
        <p>\(lang.pick("En tjeneste ber deg identifisere deg med BankID.", "A service asks you to identify yourself with BankID."))</p>
        <form method="post" action="\(HTML.escape(formAction))">
        \(orderField)
        \(redirectField)
        <input type="hidden" name="ui_locales" value="\(lang.rawValue)">
        <fieldset>
        <legend>\(lang.pick("Velg testperson", "Choose a test person"))</legend>
        \(people)
        </fieldset>
        <button type="submit" class="primary" name="action" value="approve">\(lang.pick("Identifiser", "Identify"))</button>
        <button type="submit" class="secondary" name="action" value="cancel">\(lang.pick("Avbryt", "Cancel"))</button>
        </form>
        """
        return HTML.page(title: lang.pick("BankID-appen", "The BankID app"), language: lang, body: body)
    }
}
