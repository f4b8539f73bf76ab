import PortvaktDomain
import Hummingbird
import PortvaktCore
import PortvaktHTTP

/// The frame of the broker's own pages (method choice, password, errors): the portal's layout
/// and stylesheet without its navigation, `lang` set, and a link to the same page in the other language.
enum BrokerPage {
    static let pages = PortalPage.shared

    /// A broker page from its template, in the portal's layout without its navigation.
    /// - Parameter brand: the organisation of the client the login is for, when it has one.
    static func render(_ template: String, language: Language, switchLanguage: (@Sendable (Language) -> String)?, brand: BrandView? = nil, values: some PageValues) -> String {
        var frame = PortalPage.Frame(language: language, path: "/", csrf: nil)
        frame.portal = false
        frame.brand = brand
        frame.switchLanguage = switchLanguage
        return pages.render(template, frame: frame, values: values)
    }

    /// - Parameter script: allow the page's own script (`script-src 'self'`) and its requests to this server.
    static func response(_ html: String, status: HTTPResponse.Status = .ok, script: Bool = false) -> Response {
        let scripting = script ? " script-src 'self'; connect-src 'self';" : ""
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                // No form-action: the password form's answer redirects to the app's own scheme.
                // img-src: an organisation's logo (/brands/{slug}/logo.svg).
                .contentSecurityPolicy: "default-src 'none'; style-src 'self'; img-src 'self';\(scripting) frame-ancestors 'none'; base-uri 'none'",
                .init("Referrer-Policy")!: "no-referrer",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html))
        )
    }

    /// A dead end the app cannot be told about (unknown client or redirect): the message and
    /// nothing technical beyond the one-line reason.
    static func problem(_ message: UserMessage, reason: String, language: Language, status: HTTPResponse.Status = .badRequest) -> Response {
        let html = render("broker_problem", language: language, switchLanguage: nil, values: BrokerProblemView(message: message.text(language), reason: reason))
        return response(html, status: status)
    }
}

/// What `broker_notice` reads: a page of the broker that is neither a login step nor the app's
/// dead end (a client for other organisations' members, a sign-out that could not be done).
struct BrokerNoticeView: PageValues {
    let heading: String
    let message: String
    /// The one-line technical reason, in English.
    var reason: String? = nil
    var action: NoticeView.Action? = nil
}

/// What `broker_problem` reads.
struct BrokerProblemView: PageValues {
    let message: String
    /// The one-line technical reason, in English.
    let reason: String
}

/// Where the app's user chooses BankID, Vipps or email and password.
enum MethodPage {
    /// - Parameters:
    ///   - methods: the ways in that are configured; only they are shown.
    ///   - passkeys: offer a passkey (the public URL names a domain, S18.5).
    static func render(_ request: AppAuthorizationRequest, methods: OfferedMethods, passkeys: Bool, brand: BrandView?) -> String {
        BrokerPage.render("broker_methods", language: request.language, switchLanguage: { request.authorizeURL(method: nil, language: $0) }, brand: brand, values: MethodsView(
            bankid: methods.bankID ? request.authorizeURL(method: .bankid) : nil,
            otherDevice: methods.bankIDOrders ? request.authorizeURL(method: nil, path: OtherDeviceRoutes.path) : nil,
            vipps: methods.vipps ? request.authorizeURL(method: .vipps) : nil, password: request.authorizeURL(method: .password),
            passkey: passkeys ? request.authorizeURL(method: .passkey) : nil
        ))
    }
}

/// What `broker_methods` reads: each way in, as the authorize address that starts it; nil: not
/// configured here, so not shown.
struct MethodsView: PageValues {
    let bankid: String?
    let otherDevice: String?
    let vipps: String?
    let password: String
    let passkey: String?
}

/// Sign-in with a passkey (S18.2): a button that asks the browser for one of this site's
/// discoverable credentials; the page script (`passkey.js`) posts the assertion in the form.
enum PasskeyPage {
    static func render(_ request: AppAuthorizationRequest, handle: String, message: BrokerText? = nil, brand: BrandView?) -> String {
        let values = PasskeyView(handle: handle, methods: request.authorizeURL(method: nil), error: message?.text(request.language))
        let address: @Sendable (Language) -> String = { request.authorizeURL(method: .passkey, language: $0) }
        return BrokerPage.render("broker_passkey", language: request.language, switchLanguage: message == nil ? address : nil, brand: brand, values: values)
    }
}

/// What `broker_passkey` reads.
struct PasskeyView: PageValues {
    /// The login's flow handle, which the form posts back.
    let handle: String
    /// The method choice, for choosing another way.
    let methods: String
    /// nil: no error to show.
    let error: String?
}

/// The email and password form, the fallback that is always reachable.
enum PasswordPage {
    /// - Parameter passkeys: let the browser offer this site's passkeys in the email field
    ///   (conditional mediation, S18.2).
    static func render(
        _ request: AppAuthorizationRequest, handle: String, email: String = "", message: UserMessage? = nil, passkeyMessage: BrokerText? = nil, passkeys: Bool = false,
        brand: BrandView?
    ) -> String {
        let values = PasswordView(
            handle: handle, email: email, methods: request.authorizeURL(method: nil), passkeys: passkeys,
            error: passkeyMessage?.text(request.language) ?? message?.text(request.language)
        )
        // A mistyped password is answered on this page, without a switch: the other language starts the form again.
        let address: @Sendable (Language) -> String = { request.authorizeURL(method: .password, language: $0) }
        return BrokerPage.render(
            "broker_password", language: request.language, switchLanguage: message == nil && passkeyMessage == nil ? address : nil, brand: brand, values: values
        )
    }
}

/// What `broker_password` reads.
struct PasswordView: PageValues {
    let handle: String
    /// The address typed, kept when the password was wrong.
    let email: String
    let methods: String
    /// The browser may offer this site's passkeys in the email field.
    let passkeys: Bool
    /// nil: no error to show.
    let error: String?
}
