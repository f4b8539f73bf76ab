import Crypto
import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain

/// Binds a membership claim to the browser that started it (S15, review IV item 1).
///
/// The callback that offers a claim sets a cookie holding an HMAC of the claim's handle; every
/// claim form is taken only with that cookie, compared in constant time. A handle alone is not
/// enough: a victim's browser made to post someone else's claim has no such cookie and continues
/// nothing. The code page's address is signed the same way, so the page shows only an address
/// this server sent a code to, never one a form made up.
struct ClaimBrowserBinding: Sendable {
    let address: PublicAddress
    let key: SymmetricKey

    private var secure: Bool { address.current.hasPrefix("https://") }
    var cookieName: String { secure ? "__Host-portvakt_claim" : "portvakt_claim" }

    /// The `Set-Cookie` value that binds `handle` to this browser for the claim's lifetime.
    func setting(for handle: String) -> String {
        cookie(value: mac("claim", handle).base64URLEncoded(), maxAge: Int(MembershipClaims.claimLifetime))
    }

    /// The `Set-Cookie` value that forgets the binding once the claim is over.
    var clearing: String { cookie(value: "", maxAge: 0) }

    /// Whether the request comes from the browser `handle`'s claim was offered to.
    func isBound(_ request: Request, to handle: String) -> Bool {
        guard let value = request.cookies[cookieName]?.value, let given = Data(base64URLEncoded: value) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: message("claim", handle), using: key)
    }

    /// The signature the code page's forms carry for the address the code went to.
    func signature(ofEmail email: String, handle: String) -> String {
        mac("email", handle, email).base64URLEncoded()
    }

    /// The address a form carries, when this server signed it for this claim; nil otherwise.
    func signedEmail(_ email: String?, signature: String?, handle: String) -> String? {
        guard let email, let signature, let given = Data(base64URLEncoded: signature) else { return nil }
        return HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: message("email", handle, email), using: key) ? email : nil
    }

    private func cookie(value: String, maxAge: Int) -> String {
        Cookie(name: cookieName, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax).description
    }

    private func mac(_ parts: String...) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: message(parts), using: key))
    }

    private func message(_ parts: String...) -> Data { message(parts) }

    /// The parts joined by NUL, which none of them holds, so no two lists give one message.
    private func message(_ parts: [String]) -> Data { Data(parts.joined(separator: "\u{0}").utf8) }
}
