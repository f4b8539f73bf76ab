import Crypto
import Foundation
import JWTKit
import PortvaktCore
import PortvaktDomain

/// A relying party of Portvakt, as registered (RFC 7591 client metadata, from
/// `PORTVAKT_CLIENTS_FILE`, or the development clients under `dev`): a public client (the app,
/// the CLI; PKCE proves who redeems a code) or a confidential one that authenticates at the token
/// endpoint (a web application).
struct AppClient: Sendable, Hashable {
    let id: String
    var name: String?
    /// Compared character for character.
    let redirectURIs: [String]
    /// Loopback paths for a native app on a desktop (RFC 8252 §7.3): `http://127.0.0.1` or
    /// `http://[::1]` with any port and exactly this path.
    let loopbackPaths: [String]
    let postLogoutRedirectURIs: [String]
    /// Where the BankID app may send the user back after an order started on this device: the
    /// app's own scheme or a claimed https link, compared exactly.
    var bankIDReturnURLs: [String] = []
    /// How the client proves itself at the token, revocation and introspection endpoints.
    var authentication: Authentication = .none
    /// `id_token_signed_response_alg`: RS256 unless the client asked for ES256.
    var idTokenAlgorithm: SigningKey.Algorithm = .rs256
    /// `require_pushed_authorization_requests` (RFC 9126 §6).
    var requiresPushedRequests = false
    /// `dpop_bound_access_tokens` (RFC 9449 §5.2): every token request with a proof.
    var requiresDPoP = false
    /// Named in `PORTVAKT_LEGACY_CLIENTS`: an old app version may go without PAR and DPoP
    /// although the client requires them; each time one does, it is audited.
    var legacy = false
    /// The scopes the client may ask for (`scope`); nil for every scope Portvakt serves.
    var scopes: Set<String>? = nil
    /// `portvakt_api`: Portvakt's own app or CLI, whose tokens open Portvakt's API (`/v1`: the
    /// member's data, devices, step-up) and which may use the device unlock grant. Any other
    /// relying party's tokens open only `/oauth/userinfo`.
    var portvaktAPI = false
    /// `require_pkce`: PKCE even from a confidential client that sends a `nonce` (RFC 9700 §2.1.1
    /// lets such a client go without); a public client needs it always.
    var requiresPKCE = false
    /// `first_party`: the organisations' own service, which a person is not asked to consent to.
    var firstParty = false
    /// `organisations`: the slugs of the organisations whose members alone may sign in here; empty
    /// for every member.
    var organisations: [String] = []
    /// `brand` (Portvakt's): the slug of the organisation whose name, logo and colour its login
    /// pages and, for Portvakt's own app, `/v1/me` show; by default its one `organisations`.
    var brand: String? = nil
    /// `backchannel_logout_uri` (OIDC Back-Channel Logout 1.0 §2.2): told, with a `logout_token`,
    /// whenever a session that signed this client in ends.
    var backchannelLogoutURI: String? = nil

    /// RFC 7591 `token_endpoint_auth_method` and what it checks against.
    enum Authentication: Sendable, Hashable {
        case none
        /// SHA-256 of the secret: digests compare in constant time (swift-crypto's `==`).
        case clientSecretBasic(secretDigest: SHA256.Digest)
        case clientSecretPost(secretDigest: SHA256.Digest)
        /// RFC 7523 §2.2 client assertions, checked against the client's public keys.
        case privateKeyJWT(ClientKeys)

        var method: String {
            switch self {
            case .none: "none"
            case .clientSecretBasic: "client_secret_basic"
            case .clientSecretPost: "client_secret_post"
            case .privateKeyJWT: "private_key_jwt"
            }
        }

        static func digest(_ secret: String) -> SHA256.Digest { SHA256.hash(data: Data(secret.utf8)) }
    }

    /// Where a `private_key_jwt` client's public keys are (RFC 7591 §2): in the clients file
    /// (`jwks`, as JSON), or published at its `jwks_uri`, where it can rotate them itself.
    enum ClientKeys: Sendable, Hashable {
        case inline(jwks: String)
        case published(uri: String)

        /// A public key a client assertion can be checked with: named, RSA or P-256, of an
        /// algorithm ``ClientAuthentication`` accepts.
        static func isUsableAssertionKey(_ key: JWK) -> Bool {
            guard key.privateExponent == nil, key.keyIdentifier != nil, [.rsa, .ecdsa].contains(key.keyType) else { return false }
            if key.keyType == .ecdsa, key.curve?.rawValue != "P-256" { return false }
            return key.algorithm.map { ["RS256", "PS256", "ES256"].contains($0.rawValue) } ?? true
        }
    }

    var isConfidential: Bool { authentication != .none }

    /// What a login does for this client. Portvakt's own app and CLI keep their sessions on the
    /// device: they neither make nor use the browser's single sign-on.
    var policy: ClientPolicy {
        ClientPolicy(
            organisations: organisations, firstParty: firstParty, singleSignOn: !portvaktAPI, notifiesLogout: backchannelLogoutURI != nil, brand: brand
        )
    }

    /// The loopback interface as a redirect URI names it (RFC 8252 §7.3; never `localhost`, §8.3).
    static let loopbackHosts: Set<String> = ["127.0.0.1", "[::1]", "::1"]

    func allowsRedirect(_ uri: String) -> Bool {
        if redirectURIs.contains(uri) { return true }
        guard !loopbackPaths.isEmpty, let components = URLComponents(string: uri),
              components.scheme == "http", components.user == nil, components.password == nil,
              components.query == nil, components.fragment == nil,
              let host = components.host, Self.loopbackHosts.contains(host),
              let port = components.port, (1...65535).contains(port)
        else { return false }
        // Rebuilt from its parts, so encoded tricks or odd spellings cannot pass as the same URI.
        let rebuilt = "http://\(host == "::1" ? "[::1]" : host):\(port)\(components.percentEncodedPath)"
        return rebuilt == uri && loopbackPaths.contains(components.percentEncodedPath)
    }

    /// Whether a sign-out may return to `uri` (OIDC RP-Initiated Logout §3): registered, compared
    /// exactly, port included.
    func allowsPostLogoutRedirect(_ uri: String) -> Bool {
        postLogoutRedirectURIs.contains(uri)
    }

    /// Whether the BankID app may return to `url`: on the allow-list, and never plain `http://`,
    /// which any program on the device could answer.
    func allowsBankIDReturn(_ url: String) -> Bool {
        guard let scheme = URLComponents(string: url)?.scheme?.lowercased(), scheme != "http" else { return false }
        return bankIDReturnURLs.contains(url)
    }

    /// Whether the client may ask for every one of `scopes`.
    func allowsScopes(_ scopes: [String]) -> Bool {
        guard let allowed = self.scopes else { return true }
        return scopes.allSatisfy(allowed.contains)
    }

    /// The app and the CLI as `portvakt-server dev` serves them (production has exactly the
    /// clients of `PORTVAKT_CLIENTS_FILE`). Both push their requests and bind tokens to a key.
    static let development: [AppClient] = [
        AppClient(
            id: "no.portvakt.app", name: "Portvakt (development)", redirectURIs: ["no.portvakt.app:/oauth/callback"], loopbackPaths: [],
            postLogoutRedirectURIs: ["no.portvakt.app:/oauth/logout"], bankIDReturnURLs: ["no.portvakt.app:/bankid/return"],
            idTokenAlgorithm: .es256, requiresPushedRequests: true, requiresDPoP: true, portvaktAPI: true, firstParty: true
        ),
        AppClient(
            id: "portvakt-cli", name: "portvakt CLI", redirectURIs: [], loopbackPaths: ["/callback"], postLogoutRedirectURIs: [],
            idTokenAlgorithm: .es256, requiresPushedRequests: true, requiresDPoP: true, portvaktAPI: true, firstParty: true
        ),
    ]
}
