import Crypto
import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain

/// Binds a login's browser steps to the browser that started them (RFC 6749 §10.12, RFC 9700
/// §4.7; S15, review IV item 1 and M1).
///
/// - A login sent to BankID or Vipps sets a cookie holding an HMAC of its `state`; the callback
///   takes the state only with that cookie. A callback URL made in another browser (someone's own
///   login, sent to a victim) continues nothing there, so nobody can be signed in as someone else
///   or offered someone else's claim. Each login has its own cookie (named after a hash of its
///   state, as ASP.NET's correlation cookies are), so two logins in two tabs do not undo each
///   other; it expires with the login. On https it is `__Host-`: no sibling subdomain can plant
///   one (cookie tossing), which is why its path is `/`.
/// - The callback that offers a claim sets a cookie holding an HMAC of the claim's handle; every
///   claim form is taken only with that cookie. The code page's address is signed the same way,
///   so the page shows only an address this server sent a code to, never one a form made up.
///
/// Every comparison is an HMAC check (constant time).
struct BrowserBinding: Sendable {
    let address: PublicAddress
    let key: SymmetricKey

    private var secure: Bool { address.current.hasPrefix("https://") }

    /// The page for a step without its browser's cookie (another browser or site, or a cookie
    /// expired): 403, and nothing about the login or claim is said or changed.
    static func otherBrowser(_ request: Request) -> Response {
        BrokerPage.problem(.invalidLoginRequest, reason: "this login was started in another browser", language: PortalLanguage.of(request), status: .forbidden)
    }

    // MARK: - A login's state

    /// The `Set-Cookie` value that binds the login with `state` to this browser for `lifetime`.
    func loginSetting(for state: String, lifetime: TimeInterval) -> String {
        Cookie(
            name: loginCookieName(state), value: mac("login", state).base64URLEncoded(), maxAge: Int(lifetime),
            path: "/", secure: secure, httpOnly: true, sameSite: .lax
        ).description
    }

    /// Whether the provider's answer for `state` arrived in the browser that started the login.
    func isLoginBound(_ request: Request, state: String) -> Bool {
        isValid(request.cookies[loginCookieName(state)]?.value, for: "login", state)
    }

    /// `portvakt_login_` and 16 characters of the state's SHA-256 (`__Host-` on https).
    private func loginCookieName(_ state: String) -> String {
        let tag = Data(SHA256.hash(data: Data(state.utf8))).base64URLEncoded().prefix(16)
        return (secure ? "__Host-" : "") + "portvakt_login_" + tag
    }

    // MARK: - A membership claim

    var claimCookieName: String { secure ? "__Host-portvakt_claim" : "portvakt_claim" }

    /// The `Set-Cookie` value that binds the claim `handle` to this browser for the claim's lifetime.
    func claimSetting(for handle: String) -> String {
        claimCookie(value: mac("claim", handle).base64URLEncoded(), maxAge: Int(MembershipClaims.claimLifetime))
    }

    /// The `Set-Cookie` value that forgets the claim's binding once the claim is over.
    var claimClearing: String { claimCookie(value: "", maxAge: 0) }

    /// Whether the request comes from the browser `handle`'s claim was offered to.
    func isClaimBound(_ request: Request, to handle: String) -> Bool {
        isValid(request.cookies[claimCookieName]?.value, for: "claim", handle)
    }

    /// The signature the code page's forms carry for the address the code went to.
    func signature(ofEmail email: String, handle: String) -> String {
        mac("email", handle, email).base64URLEncoded()
    }

    /// The address a form carries, when this server signed it for this claim; nil otherwise.
    func signedEmail(_ email: String?, signature: String?, handle: String) -> String? {
        guard let email, isValid(signature, for: "email", handle, email) else { return nil }
        return email
    }

    private func claimCookie(value: String, maxAge: Int) -> String {
        Cookie(name: claimCookieName, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax).description
    }

    // MARK: - A consent

    /// The consent form's token: bound to the browser's sign-in (its cookie's reference) and to
    /// the request it answers, so a form made elsewhere answers nothing.
    func consentToken(reference: String, handle: String) -> String {
        mac("consent", reference, handle).base64URLEncoded()
    }

    func isConsentToken(_ token: String?, reference: String, handle: String) -> Bool {
        isValid(token, for: "consent", reference, handle)
    }

    // MARK: - HMAC

    private func isValid(_ given: String?, for parts: String...) -> Bool {
        guard let given, let code = Data(base64URLEncoded: given) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message(parts), using: key)
    }

    private func mac(_ parts: String...) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: message(parts), using: key))
    }

    /// The parts joined by NUL, which none of them holds, so no two lists give one message.
    private func message(_ parts: [String]) -> Data { Data(parts.joined(separator: "\u{0}").utf8) }
}
