import Foundation

/// A public client of Portvakt (RFC 6749 §2.1): the app or the CLI. No secret; PKCE proves
/// that the redeemer of a code started the login.
struct AppClient: Sendable, Hashable {
    let id: String
    /// Compared character for character.
    let redirectURIs: [String]
    /// Loopback paths for a native app on a desktop (RFC 8252 §7.3): `http://127.0.0.1` or
    /// `http://[::1]` with any port and exactly this path.
    let loopbackPaths: [String]
    let postLogoutRedirectURIs: [String]
    /// Where the BankID app may send the user back after an order started on this device: the
    /// app's own scheme or a claimed https link, compared exactly.
    var bankIDReturnURLs: [String] = []
    /// Whether the client must push its authorization requests (PAR, RFC 9126) and prove its key
    /// at every token request (DPoP, RFC 9449).
    var senderConstraint: SenderConstraint = .optional

    enum SenderConstraint: Sendable, Hashable {
        /// The client may use PAR and DPoP (the portal: its codes never leave the server).
        case optional
        /// Every authorization request pushed, every token request with a proof.
        case required
        /// Required by default, but `PORTVAKT_LEGACY_CLIENTS` lets old app versions go without;
        /// each time one does, it is audited.
        case relaxed
    }

    func allowsRedirect(_ uri: String) -> Bool {
        if redirectURIs.contains(uri) { return true }
        guard !loopbackPaths.isEmpty, let components = URLComponents(string: uri),
              components.scheme == "http", components.user == nil, components.password == nil,
              components.query == nil, components.fragment == nil,
              let host = components.host, host == "127.0.0.1" || host == "[::1]" || host == "::1",
              let port = components.port, (1...65535).contains(port)
        else { return false }
        // Rebuilt from its parts, so encoded tricks or odd spellings cannot pass as the same URI.
        let rebuilt = "http://\(host == "::1" ? "[::1]" : host):\(port)\(components.percentEncodedPath)"
        return rebuilt == uri && loopbackPaths.contains(components.percentEncodedPath)
    }

    /// Whether the BankID app may return to `url`: on the allow-list, and never plain `http://`,
    /// which any program on the device could answer.
    func allowsBankIDReturn(_ url: String) -> Bool {
        guard let scheme = URLComponents(string: url)?.scheme?.lowercased(), scheme != "http" else { return false }
        return bankIDReturnURLs.contains(url)
    }

    /// The app and the CLI, which every Portvakt server serves.
    static let builtIn: [AppClient] = [
        AppClient(
            id: "no.portvakt.app", redirectURIs: ["no.portvakt.app:/oauth/callback"], loopbackPaths: [],
            postLogoutRedirectURIs: ["no.portvakt.app:/oauth/logout"],
            bankIDReturnURLs: ["no.portvakt.app:/bankid/return", "https://app.portvakt.no/bankid/return"],
            senderConstraint: .required
        ),
        AppClient(id: "portvakt-cli", redirectURIs: [], loopbackPaths: ["/callback"], postLogoutRedirectURIs: [], senderConstraint: .required),
    ]

    /// The built-in clients, with those named in `PORTVAKT_LEGACY_CLIENTS` relaxed.
    static func builtIn(legacy: Set<String>) -> [AppClient] {
        builtIn.map { client in
            var client = client
            if legacy.contains(client.id) { client.senderConstraint = .relaxed }
            return client
        }
    }
}
