import Crypto
import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain

/// The browser's single sign-on at Portvakt: a cookie holding only a random reference (the
/// database keeps its hash, `browser_sessions`), `HttpOnly`, `SameSite=Lax` (a relying party's
/// top-level redirect to `/oauth/authorize` carries it, a cross-site form or frame does not), and
/// `Secure` with the `__Host-` prefix on https.
struct SingleSignOnCookie: Sendable {
    let address: PublicAddress

    private var secure: Bool { address.current.hasPrefix("https://") }
    var name: String { secure ? "__Host-portvakt_sso" : "portvakt_sso" }

    func reference(in request: Request) -> String? {
        request.cookies[name].map(\.value).flatMap { $0.isEmpty || $0.utf8.count > 128 ? nil : $0 }
    }

    func setting(_ reference: String, lifetime: TimeInterval) -> String {
        Cookie(name: name, value: reference, maxAge: Int(lifetime), path: "/", secure: secure, httpOnly: true, sameSite: .lax).description
    }

    var clearing: String {
        Cookie(name: name, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .lax).description
    }

    static func hash(_ reference: String) -> Data { RefreshTokenSecret.hash(reference) }

    /// The sign-out form's token: a hash of the cookie's reference, which only this browser holds.
    func signOutToken(_ reference: String) -> String {
        Data(SHA256.hash(data: Data("sign-out\u{0}\(reference)".utf8))).base64URLEncoded()
    }
}
