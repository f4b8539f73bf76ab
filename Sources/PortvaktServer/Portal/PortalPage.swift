import Foundation
import HTTPTypes
import Hummingbird
import PortvaktCore
import PortvaktHTTP

/// Renders the portal's pages from ``PortalTemplates`` with the texts of the page's language,
/// and answers with the headers every portal page carries.
struct PortalPage: Sendable {
    /// The templates, parsed once for every page the server renders.
    static let shared = PortalPage()

    let renderer = PageRenderer(templates: PortalTemplates.all)

    /// What every page needs besides its own values.
    struct Frame: Sendable {
        let language: Language
        /// The path (with query) of the page, for the language switch to come back to.
        let path: String
        /// The signed-in browser's CSRF token; nil when nobody is signed in.
        let csrf: String?
        var status: String?
        /// A portal page (its navigation shown), or one of the broker's pages in the app's login.
        var portal = true
        /// The address of this page in another language; nil: the portal's switch for `path`.
        var switchLanguage: (@Sendable (Language) -> String)?
        /// The organisation the page acts for; nil: the neutral service.
        var brand: BrandView?
        /// The page loads its own script (`script-src 'self'`) and calls this server (`connect-src 'self'`).
        var script = false
    }

    /// Every text of the portal and its administration, by language.
    private static let texts: [Language: [String: String]] = Dictionary(uniqueKeysWithValues: Language.allCases.map { language in
        (language, [AdminText.table(language), BrokerText.table(language), ClaimText.table(language), MailboxText.table(language)].reduce(PortalText.table(language)) {
            $0.merging($1) { first, _ in first }
        })
    })

    /// What `layout` reads; a page sets them through ``Frame``, never among its own values.
    struct Layout: PageValues {
        let t: [String: String]
        let lang: String
        let portal: Bool
        let nav: Bool
        let signedIn: Bool
        let csrf: String
        /// nil: no live region.
        let status: String?
        /// Empty: no language switch.
        let languages: [LanguageLink]
        /// nil: the neutral service's name.
        let brand: BrandView?

        init(_ frame: Frame) {
            t = PortalPage.texts[frame.language] ?? [:]
            lang = frame.language.rawValue
            portal = frame.portal
            nav = frame.portal || frame.switchLanguage != nil
            signedIn = frame.csrf != nil
            csrf = frame.csrf ?? ""
            status = frame.status
            let path = frame.path
            let address = frame.switchLanguage ?? (frame.portal ? { "/language?to=\($0.rawValue)&back=\(FormFields.encode(path))" } : nil)
            languages = address.map { LanguageLink.links(from: frame.language, $0) } ?? []
            brand = frame.brand
        }
    }

    /// - Parameter around: values a kind of page shares (the administration's); the page's own replace them.
    func render(_ template: String, frame: Frame, values: some PageValues, around: [any PageValues] = []) -> String {
        renderer.render(template, values: values, around: around, layout: Layout(frame))
    }

    func response(
        _ template: String, frame: Frame, values: some PageValues, around: [any PageValues] = [], status: HTTPResponse.Status = .ok, cookies: [String] = []
    ) -> Response {
        Self.response(html: render(template, frame: frame, values: values, around: around), status: status, cookies: cookies, script: frame.script)
    }

    static func response(html: String, status: HTTPResponse.Status, cookies: [String] = [], script: Bool = false) -> Response {
        var headers = securityHeaders
        if script { headers[.contentSecurityPolicy] = scriptPolicy }
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static func redirect(to location: String, cookies: [String] = []) -> Response {
        var headers = securityHeaders
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }

    /// A page with its own script file: the same, and scripts and requests from here only.
    static let scriptPolicy = "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// No script at all, styles and images only from here, forms only to here, never in a frame.
    static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy: "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        HTTPField.Name("Referrer-Policy")!: "same-origin",
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("X-Frame-Options")!: "DENY",
    ]
}
