import Hummingbird
import PortvaktCore

/// The frame of the broker's own pages (method choice, password, errors): the portal's layout
/// and stylesheet without its navigation, `lang` set, and a link to the same page in the other language.
enum BrokerPage {
    static let pages = PortalPage.shared

    static func render(title: String, language: Language, switchLanguageURL: String?, body: String) -> String {
        var frame = PortalPage.Frame(language: language, path: "/", csrf: nil)
        frame.portal = false
        frame.switchLanguage = switchLanguageURL
        return pages.render("broker", frame: frame, values: ["title": title, "body": body])
    }

    /// - Parameter script: allow the page's own script (`script-src 'self'`) and its requests to this server.
    static func response(_ html: String, status: HTTPResponse.Status = .ok, script: Bool = false) -> Response {
        let scripting = script ? " script-src 'self'; connect-src 'self';" : ""
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                // No form-action: the password form's answer redirects to the app's own scheme.
                .contentSecurityPolicy: "default-src 'none'; style-src 'self';\(scripting) frame-ancestors 'none'; base-uri 'none'",
                .init("Referrer-Policy")!: "no-referrer",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html))
        )
    }

    /// A dead end the app cannot be told about (unknown client or redirect): the message and
    /// nothing technical beyond the one-line reason.
    static func problem(_ message: UserMessage, reason: String, language: Language, status: HTTPResponse.Status = .badRequest) -> Response {
        let body = """
        <h1>\(language.pick("Innloggingen kan ikke fortsette", "The login cannot continue").htmlEscaped)</h1>
        <p class="error" role="alert">\(message.text(language).htmlEscaped)</p>
        <p><small>\(language.pick("Teknisk årsak", "Technical reason")): <span lang="en">\(reason.htmlEscaped)</span></small></p>
        <p>\(language.pick("Gå tilbake til appen og start innloggingen på nytt, eller", "Go back to the app and start the login again, or")) \
        <a href="/">\(language.pick("gå til Portvakts forside", "go to Portvakt's start page"))</a>.</p>
        """
        return response(render(title: message.text(language), language: language, switchLanguageURL: nil, body: body), status: status)
    }
}

/// Where the app's user chooses BankID, Vipps or email and password.
enum MethodPage {
    static func render(_ request: AppAuthorizationRequest) -> String {
        let language = request.language
        let body = """
        <h1>\(language.pick("Logg inn", "Log in"))</h1>
        <p>\(language.pick("Velg hvordan du vil logge inn.", "Choose how to log in."))</p>
        <nav aria-label="\(language.pick("Innloggingsmåter", "Login methods"))">
        <a class="method primary" href="\(request.authorizeURL(method: .bankid).htmlEscaped)">\(language.pick("Logg inn med BankID", "Log in with BankID"))</a>
        <a class="method" href="\(request.authorizeURL(method: nil, path: OtherDeviceRoutes.path).htmlEscaped)">\(language.pick("BankID på en annen enhet (QR-kode)", "BankID on another device (QR code)"))</a>
        <a class="method primary" href="\(request.authorizeURL(method: .vipps).htmlEscaped)">\(language.pick("Logg inn med Vipps", "Log in with Vipps"))</a>
        <a class="method" href="\(request.authorizeURL(method: .password).htmlEscaped)">\(language.pick("Logg inn med e-post og passord", "Log in with email and password"))</a>
        </nav>
        """
        return BrokerPage.render(
            title: language.pick("Logg inn", "Log in"), language: language,
            switchLanguageURL: request.authorizeURL(method: nil, language: language.other), body: body
        )
    }
}

/// The email and password form, the fallback that is always reachable.
enum PasswordPage {
    static func render(_ request: AppAuthorizationRequest, handle: String, email: String = "", message: UserMessage? = nil) -> String {
        let language = request.language
        let alert = message.map { #"<p class="error" role="alert" id="login-error">\#($0.text(language).htmlEscaped)</p>"# } ?? ""
        let describedBy = message == nil ? "" : #" aria-describedby="login-error""#
        let body = """
        <h1>\(language.pick("Logg inn med e-post og passord", "Log in with email and password"))</h1>
        \(alert)
        <form method="post" action="/oauth/password">
        <input type="hidden" name="flow" value="\(handle.htmlEscaped)">
        <label for="email">\(language.pick("E-postadresse", "Email address"))</label>
        <input id="email" name="email" type="email" autocomplete="username" required value="\(email.htmlEscaped)"\(describedBy)>
        <label for="password">\(language.pick("Passord", "Password"))</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required\(describedBy)>
        <button type="submit">\(language.pick("Logg inn", "Log in"))</button>
        </form>
        <p><a href="\(request.authorizeURL(method: nil).htmlEscaped)">\(language.pick("Velg BankID eller Vipps i stedet", "Choose BankID or Vipps instead"))</a></p>
        """
        // A mistyped password is answered on this page, without a switch: the other language starts the form again.
        return BrokerPage.render(
            title: language.pick("Logg inn", "Log in"), language: language,
            switchLanguageURL: message == nil ? request.authorizeURL(method: .password, language: language.other) : nil, body: body
        )
    }
}
