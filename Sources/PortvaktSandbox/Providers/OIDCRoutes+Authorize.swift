import PortvaktHTTP
import PortvaktCore
import Foundation
import Hummingbird

extension OIDCRoutes {
    /// The authorization endpoint (RFC 6749 §4.1.1, OpenID Connect Core §3.1.2). Without a choice it
    /// shows the login page; with one (the page's form, or `sandbox_user` and `sandbox_action` in
    /// the query for scripts) it redirects back with a code or an error.
    func authorize(_ request: Request, choice formChoice: (user: String?, action: String)?) async throws -> Response {
        let query = try request.queryFields()
        let language = SandboxCatalog.language(uiLocales: query["ui_locales"])

        // Errors about the client or redirect URI are shown, never redirected (RFC 6749 §4.1.2.1).
        guard let clientID = query["client_id"], let client = await sandbox.clients.client(clientID, at: provider) else {
            return errorPage(SandboxPhrase.unknownClient.text(language),
                             SandboxPhrase.clientIdIsMissingOrNot.text(language, ["display_name": provider.displayName]), language)
        }
        guard let redirectURI = query["redirect_uri"], client.redirectURIs.contains(redirectURI) else {
            return errorPage(SandboxPhrase.invalidRedirectUri.text(language),
                             SandboxPhrase.redirectUriIsMissingOrNot.text(language), language)
        }

        let state = query["state"]
        let base = try sandbox.baseURL(for: request)
        func fail(_ error: String, _ description: String) -> Response {
            var fields = [("error", error), ("error_description", description)]
            if let state { fields.append(("state", state)) }
            if provider == .bankid { fields.append(("iss", issuer(base: base))) }
            return Responses.redirect(to: URLComponents.appending(fields, to: redirectURI), status: formChoice == nil ? .found : .seeOther)
        }

        guard query["response_type"] == "code" else {
            return fail("unsupported_response_type", "Only response_type=code is supported.")
        }
        if provider == .vipps, (state?.count ?? 0) < 8 {
            return fail("invalid_request", "state must be at least 8 characters.")
        }
        let scopes = (query["scope"] ?? "").split(separator: " ").map(String.init)
        guard scopes.contains("openid") else { return fail("invalid_scope", "The openid scope is required.") }
        if let unknown = scopes.first(where: { !provider.supportedScopes.contains($0) }) {
            return fail("invalid_scope", "Unknown scope: \(unknown).")
        }
        let challenge = query["code_challenge"]
        if challenge != nil || query["code_challenge_method"] != nil {
            guard query["code_challenge_method"] == "S256" else { return fail("invalid_request", "code_challenge_method must be S256.") }
            guard let challenge, PKCE.isWellFormed(challenge: challenge) else {
                return fail("invalid_request", "code_challenge must be 43 base64url characters.")
            }
        } else if provider == .bankid {
            return fail("invalid_request", "PKCE with code_challenge_method=S256 is required.")
        }

        let faults = await sandbox.faults.settings(for: provider)
        let choice = formChoice ?? query["sandbox_action"].map { (user: query["sandbox_user"], action: $0) }
        guard let choice else {
            return Responses.html(LoginPage(
                provider: provider, clientID: client.clientID, scopes: scopes, language: language,
                loginHint: query["login_hint"], formAction: request.uri.description,
                switchLanguage: { URLComponents.appending([("ui_locales", $0.rawValue)], to: request.uri.path + "?" + stripped(request.uri.query, removing: "ui_locales")) },
                stylesheet: sandbox.stylesheetPath
            ).render())
        }
        if choice.action == "cancel" || faults.contains(.userCancels) {
            return fail("access_denied", "User cancelled the login.")
        }
        guard choice.action == "approve" else { return errorPage("action", SandboxPhrase.actionMustBeApproveOrCancel.text(language), language) }
        guard let userID = choice.user, let user = TestUsers.user(id: userID) else {
            return errorPage(SandboxPhrase.unknownTestPerson.text(language),
                             SandboxPhrase.chooseOneOfTheTestPeople2.text(language), language)
        }

        let now = sandbox.now
        let reusesSignOn = faults.contains(.singleSignOn) && query["prompt"] != "login" && query["max_age"] == nil
        let grant = AuthorizationGrant(
            clientID: client.clientID, redirectURI: redirectURI, user: user, scopes: Set(scopes), nonce: query["nonce"],
            codeChallenge: challenge, level: provider == .bankid ? BankIDLevel(acrValues: query["acr_values"]) : nil,
            authTime: reusesSignOn ? now.addingTimeInterval(-600) : now, sessionID: UUID().uuidString.lowercased()
        )
        let code = await simulated.state.issueCode(for: grant, expiresAt: now.addingTimeInterval(sandbox.configuration.codeLifetime.timeInterval))
        var fields = [("code", code)]
        if let state { fields.append(("state", state)) }
        if provider == .bankid { fields.append(("iss", issuer(base: base))) }
        return Responses.redirect(to: URLComponents.appending(fields, to: redirectURI), status: formChoice == nil ? .found : .seeOther)
    }

    private func errorPage(_ title: String, _ message: String, _ language: Language) -> Response {
        Responses.html(MessagePage(title: title, message: message, language: language, stylesheet: sandbox.stylesheetPath, isError: true).render(), status: .badRequest)
    }

    private func stripped(_ query: String?, removing name: String) -> String {
        (query ?? "").split(separator: "&").filter { !$0.hasPrefix("\(name)=") }.joined(separator: "&")
    }
}

/// BankID's two levels: BankID (LOA 4) and BankID with biometrics (LOA 3).
struct BankIDLevel: Sendable {
    let acr: String
    let amr: String

    init(acrValues: String?) {
        if (acrValues ?? "").split(separator: " ").first == "urn:bankid:bis" {
            acr = "urn:bankid:bis;LOA=3"
            amr = "BIS"
        } else {
            acr = "urn:bankid:bid;LOA=4"
            amr = "BID"
        }
    }
}
