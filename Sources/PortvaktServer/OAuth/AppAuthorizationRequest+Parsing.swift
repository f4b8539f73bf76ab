import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktProtocol
import PortvaktStorage

/// The app's authorization request as `/oauth/authorize` and the BankID order start receive it,
/// checked before anything is stored.
extension AppAuthorizationRequest {
    /// Where a problem found before the redirect URI is trusted is shown: on a page, never by
    /// redirecting (RFC 6749 §4.1.2.1).
    struct PageError: Error {
        let description: String
    }

    /// A problem reported to the app by redirecting to its checked redirect URI.
    struct RedirectError: Error {
        let redirectURI: String
        let state: String?
        let error: OAuthErrorCode
        let description: String
        let language: Language
    }

    /// Parses and checks the query. Throws ``PageError`` or ``RedirectError``.
    /// The language is `ui_locales`, else the browser's `Accept-Language`, else Bokmål.
    static func parse(_ fields: FormFields, clients: [AppClient], acceptLanguage: String? = nil) throws -> AppAuthorizationRequest {
        guard let clientID = fields["client_id"], let client = clients.first(where: { $0.id == clientID }) else {
            throw PageError(description: "unknown client_id")
        }
        guard let redirectURI = fields["redirect_uri"], client.allowsRedirect(redirectURI) else {
            throw PageError(description: "redirect_uri is not registered for this client")
        }
        let language = fields["ui_locales"].map { Language(uiLocales: $0) } ?? acceptLanguage.flatMap(PortalLanguage.preferred) ?? .nb
        let state = fields["state"]
        func refuse(_ error: OAuthErrorCode, _ description: String) -> RedirectError {
            RedirectError(redirectURI: redirectURI, state: state, error: error, description: description, language: language)
        }
        guard fields["response_type"] == "code" else { throw refuse(.unsupportedResponseType, "response_type must be code") }
        let challenge = try checkPKCE(method: fields["code_challenge_method"], challenge: fields["code_challenge"], nonce: fields["nonce"], scope: fields["scope"], client: client, refuse: refuse)
        guard let state, (8...512).contains(state.count) else { throw refuse(.invalidRequest, "state must be 8 to 512 characters") }
        let scope = try checkNonceAndScope(nonce: fields["nonce"], scope: fields["scope"], client: client, refuse: refuse)
        var method: IdentityProvider?
        if let hint = fields["idp_hint"] {
            guard let chosen = IdentityProvider(rawValue: hint) else { throw refuse(.invalidRequest, "idp_hint must be bankid, vipps or password") }
            method = chosen
        }
        var maxAge: Int?
        if let text = fields["max_age"] {
            guard let seconds = Int(text), (0...86_400 * 365).contains(seconds) else { throw refuse(.invalidRequest, "max_age must be a number of seconds") }
            maxAge = seconds
        }
        let prompts = Set((fields["prompt"] ?? "").split(separator: " ").map(String.init))
        guard prompts.isSubset(of: ["none", "login", "consent", "select_account"]) else {
            throw refuse(.invalidRequest, "prompt may be none, login, consent or select_account")
        }
        if prompts.contains("none"), prompts.count > 1 { throw refuse(.invalidRequest, "prompt=none cannot be combined with another prompt") }
        // One account a person: choosing it is signing in again.
        if prompts.contains("login") || prompts.contains("select_account") { maxAge = 0 }
        let acrValues = fields["acr_values"]
        if let acrValues, acrValues.utf8.count > 512 { throw refuse(.invalidRequest, "acr_values is too long") }
        var dpopJKT: String?
        if let jkt = fields["dpop_jkt"] {
            guard isThumbprint(jkt) else { throw refuse(.invalidRequest, "dpop_jkt must be a base64url SHA-256 JWK thumbprint") }
            dpopJKT = jkt
        }
        let hint = fields["login_hint"].flatMap { $0.utf8.count <= 64 && $0.allSatisfy { $0.isLetter || $0.isNumber || "+@.-_".contains($0) } ? $0 : nil }
        var request = AppAuthorizationRequest(
            clientID: clientID, redirectURI: redirectURI, state: state, nonce: fields["nonce"], codeChallenge: challenge,
            scope: scope, language: language, method: method, loginHint: hint, maxAge: maxAge, dpopJKT: dpopJKT
        )
        request.prompt = prompts.isEmpty ? nil : prompts.sorted().joined(separator: " ")
        request.acrValues = acrValues
        return request
    }

    /// An RFC 7638 SHA-256 thumbprint: 43 base64url characters.
    static func isThumbprint(_ text: String) -> Bool {
        text.utf8.count == 43 && Data(base64URLEncoded: text)?.count == 32
    }

    /// An order start from the app (`POST /bankid/orders`): the same checks as
    /// `/oauth/authorize` for what the code is bound to, without `state` (the app holds the
    /// order's session id instead). Throws ``OAuthFailure``.
    static func forOrder(_ body: BankIDOrderStartRequest, clients: [AppClient]) throws(OAuthFailure) -> (AppAuthorizationRequest, AppClient) {
        guard let clientID = body.clientID, let client = clients.first(where: { $0.id == clientID }) else {
            throw OAuthFailure(error: .invalidClient, description: "client_id is missing or unknown.", status: .unauthorized)
        }
        guard let redirectURI = body.redirectURI, client.allowsRedirect(redirectURI) else {
            throw OAuthFailure.invalidRequest("redirect_uri is not registered for this client.")
        }
        // An order's code comes without a consent page: only the organisations' own clients start one.
        guard client.firstParty else {
            throw OAuthFailure(error: .unauthorizedClient, description: "BankID orders are for the organisations' own services.")
        }
        let refuse = { (error: OAuthErrorCode, description: String) in OAuthFailure(error: error, description: description) }
        let challenge = try checkPKCE(method: body.codeChallengeMethod, challenge: body.codeChallenge, nonce: body.nonce, scope: body.scope, client: client, refuse: refuse)
        let scope = try checkNonceAndScope(nonce: body.nonce, scope: body.scope, client: client, refuse: refuse)
        if let jkt = body.dpopJKT, !isThumbprint(jkt) { throw OAuthFailure.invalidRequest("dpop_jkt must be a base64url SHA-256 JWK thumbprint.") }
        let request = AppAuthorizationRequest(
            clientID: clientID, redirectURI: redirectURI, state: nil, nonce: body.nonce, codeChallenge: challenge,
            scope: scope, language: Language(uiLocales: body.uiLocales), method: .bankid, dpopJKT: body.dpopJKT
        )
        return (request, client)
    }

    /// PKCE with S256 only (RFC 7636 §4.3); returns the challenge. As RFC 9700 §2.1.1 asks:
    /// always from a public client; a confidential one may go without when it makes an OpenID
    /// Connect request (`openid`) with a `nonce` of at least 16 characters, which its ID token
    /// carries back and so binds the code, unless it registered `require_pkce`. A challenge that
    /// is sent is always checked and always bound to the code (no downgrade at the token endpoint).
    private static func checkPKCE<E: Error>(
        method: String?, challenge: String?, nonce: String?, scope: String?, client: AppClient, refuse: (OAuthErrorCode, String) -> E
    ) throws(E) -> String? {
        let openID = (scope ?? "openid").split(separator: " ").contains("openid")
        if method == nil, challenge == nil, client.isConfidential, !client.requiresPKCE, openID, let nonce, nonce.count >= 16 {
            return nil
        }
        guard method == "S256" else {
            throw refuse(.invalidRequest, "PKCE with code_challenge_method=S256 is required (plain is not accepted)")
        }
        guard let challenge, PKCE.isWellFormed(challenge: challenge) else {
            throw refuse(.invalidRequest, "code_challenge must be a base64url SHA-256 (43 characters)")
        }
        return challenge
    }

    /// A nonce of at most 512 characters and scopes Portvakt serves and the client registered
    /// (default `openid`); returns the scope.
    private static func checkNonceAndScope<E: Error>(nonce: String?, scope: String?, client: AppClient, refuse: (OAuthErrorCode, String) -> E) throws(E) -> String {
        if let nonce, nonce.count > 512 { throw refuse(.invalidRequest, "nonce is too long") }
        let scopes = (scope ?? "openid").split(separator: " ").map(String.init)
        guard !scopes.isEmpty, scopes.allSatisfy(supportedScopes.contains) else {
            throw refuse(.invalidScope, "supported scopes: \(supportedScopes.sorted().joined(separator: " "))")
        }
        guard client.allowsScopes(scopes) else {
            throw refuse(.invalidScope, "this client may ask for: \((client.scopes ?? []).sorted().joined(separator: " "))")
        }
        return scopes.joined(separator: " ")
    }
}
