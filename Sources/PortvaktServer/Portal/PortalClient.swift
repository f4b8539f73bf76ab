import Foundation

/// The portal as a client of Portvakt: it signs people in through `/oauth/authorize` like the
/// app (code + PKCE S256), with its callback under the issuer. It is confidential in the strict
/// sense: its codes are redeemed only inside the server, never at `/oauth/token`.
enum PortalClient {
    static let id = "portvakt-portal"
    static let callbackPath = "/portal/callback"

    static func client(issuer: String) -> AppClient {
        AppClient(id: id, redirectURIs: [issuer + callbackPath], loopbackPaths: [], postLogoutRedirectURIs: [])
    }
}
