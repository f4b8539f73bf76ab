import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktProtocol

/// A checked `/oauth/authorize` request from the app (RFC 6749 §4.1.1, RFC 7636 §4.3, OIDC Core
/// §3.1.2.1), kept sealed in the login flow until the code is issued. The server parses and
/// checks it (`AppAuthorizationRequest+Parsing.swift`).
public struct AppAuthorizationRequest: Codable, Sendable, Hashable {
    public static let supportedScopes: Set<String> = ["openid", "profile", "email", "offline_access", ClaimScopes.organisations]

    public var clientID: String
    public var redirectURI: String
    public var state: String?
    public var nonce: String?
    /// The PKCE S256 challenge; nil only for a confidential client that sent a `nonce` instead.
    public var codeChallenge: String?
    public var scope: String
    public var language: Language
    /// `idp_hint`: which method the app's button chose; nil shows the method page.
    public var method: IdentityProvider?
    /// OIDC `login_hint`, passed on to BankID or Vipps (a short, plain hint; anything else is dropped).
    public var loginHint: String?
    /// OIDC `max_age` (0 for `prompt=login`): the person must authenticate at BankID or Vipps
    /// now, not be let through by a session there; checked against the provider's `auth_time`.
    public var maxAge: Int?
    /// OIDC `prompt`, space-separated: `none` (answer from the browser's sign-in or with an
    /// error, never a page), `login`, `consent`, `select_account`.
    public var prompt: String?
    /// OIDC `acr_values`: a browser's sign-in is reused only when its `acr` is one of these.
    public var acrValues: String?
    /// `dpop_jkt` (RFC 9449 §10): the thumbprint of the DPoP key that alone may redeem the code.
    public var dpopJKT: String?
    /// Set when the request was pushed (PAR, RFC 9126): the handle of the stored request, which the
    /// method and password pages' links carry instead of the parameters (`LoginFlows.continuation(for:expiresAt:)`).
    public var continuation: String?

    public init(
        clientID: String, redirectURI: String, state: String?, nonce: String?, codeChallenge: String?, scope: String, language: Language,
        method: IdentityProvider?, loginHint: String? = nil, maxAge: Int? = nil, dpopJKT: String? = nil, continuation: String? = nil
    ) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.state = state
        self.nonce = nonce
        self.codeChallenge = codeChallenge
        self.scope = scope
        self.language = language
        self.method = method
        self.loginHint = loginHint
        self.maxAge = maxAge
        self.dpopJKT = dpopJKT
        self.continuation = continuation
    }

    public var prompts: Set<String> { Set((prompt ?? "").split(separator: " ").map(String.init)) }

    /// The same request with another method, as a link on the method and password pages;
    /// `path` sends it to another page of the broker (BankID on another device).
    public func authorizeURL(method: IdentityProvider?, language: Language? = nil, path: String = "/oauth/authorize") -> String {
        if let continuation {
            var fields = [("client_id", clientID), ("continuation", continuation), ("ui_locales", (language ?? self.language).rawValue)]
            if let method { fields.append(("idp_hint", method.rawValue)) }
            return URLComponents.appending(fields, to: path)
        }
        var fields = [
            ("client_id", clientID), ("redirect_uri", redirectURI), ("response_type", "code"), ("scope", scope),
            ("ui_locales", (language ?? self.language).rawValue),
        ]
        if let codeChallenge { fields += [("code_challenge", codeChallenge), ("code_challenge_method", "S256")] }
        if let state { fields.append(("state", state)) }
        if let nonce { fields.append(("nonce", nonce)) }
        if let method { fields.append(("idp_hint", method.rawValue)) }
        if let maxAge { fields.append(("max_age", String(maxAge))) }
        if let dpopJKT { fields.append(("dpop_jkt", dpopJKT)) }
        if let prompt { fields.append(("prompt", prompt)) }
        if let acrValues { fields.append(("acr_values", acrValues)) }
        return URLComponents.appending(fields, to: path)
    }
}
