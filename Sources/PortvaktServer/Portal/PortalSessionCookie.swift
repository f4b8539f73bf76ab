import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import PortvaktCore
import PortvaktDomain

/// The portal's cookie and the checks on every form it sends.
///
/// The cookie holds only a random reference (the database keeps its hash): `HttpOnly`,
/// `SameSite=Lax`, and `Secure` with the `__Host-` prefix whenever the public URL is https. A
/// form's CSRF token is an HMAC of that reference, so it is bound to the session and needs no
/// storage; a form is also refused when its `Origin` is another site's.
struct PortalSessionCookie: Sendable {
    let secure: Bool
    let csrfKey: SymmetricKey
    let origin: String

    init(issuer: String, csrfKey: SymmetricKey) {
        secure = issuer.hasPrefix("https://")
        self.csrfKey = csrfKey
        origin = Self.origin(of: issuer)
    }

    /// `scheme://host[:port]` of a URL, as browsers send it in `Origin`.
    static func origin(of url: String) -> String {
        URLComponents(string: url).map { "\($0.scheme ?? "http")://\($0.host ?? "")\($0.port.map { ":\($0)" } ?? "")" } ?? url
    }

    /// The key of the CSRF tokens and confirmations.
    static func csrfKey(_ keys: DataProtectionKeys) -> SymmetricKey {
        keys.key(for: .portalCSRF)
    }

    var name: String { secure ? "__Host-portvakt" : "portvakt" }
    static let languageName = "portvakt_lang"

    /// The session reference the request's cookie carries.
    func reference(in request: Request) -> String? {
        request.cookies[name].map(\.value).flatMap { $0.isEmpty ? nil : $0 }
    }

    func setting(_ reference: String, maxAge: Int) -> String {
        Cookie(name: name, value: reference, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax).description
    }

    var clearing: String { setting("", maxAge: 0) }

    func languageSetting(_ language: Language) -> String {
        Cookie(name: Self.languageName, value: language.rawValue, maxAge: 31_536_000, path: "/", secure: secure, httpOnly: false, sameSite: .lax).description
    }

    /// The short-lived cookie that binds a sign-in's `state` to the browser that started it, so a
    /// callback URL made in another browser cannot sign this one in (login CSRF).
    var signInName: String { secure ? "__Host-portvakt_signin" : "portvakt_signin" }

    func signInSetting(_ binder: String, maxAge: Int) -> String {
        Cookie(name: signInName, value: binder, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax).description
    }

    func signInBinder(in request: Request) -> String? {
        request.cookies[signInName].map(\.value).flatMap { $0.isEmpty ? nil : $0 }
    }

    static func hash(_ reference: String) -> Data {
        RefreshTokenSecret.hash(reference)
    }

    func csrfToken(for reference: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(reference.utf8), using: csrfKey)).base64URLEncoded()
    }

    /// Whether a form came from this site, with the token of this session.
    func acceptsForm(_ request: Request, token: String?, reference: String) -> Bool {
        if let origin = request.headers[.origin], origin != self.origin { return false }
        guard let token, let expected = Data(base64URLEncoded: csrfToken(for: reference)), let given = Data(base64URLEncoded: token) else { return false }
        return given.count == expected.count && HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: Data(reference.utf8), using: csrfKey)
    }
}
