import Foundation
import HTTPTypes
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktProtocol

/// The consent page for a third-party client (issue 59 item 3): reached from `/oauth/authorize`
/// or a login once the browser is signed in at Portvakt. `GET /oauth/consent` names the client and
/// what it gets; `POST /oauth/consent` (a same-origin form of that browser's sign-in, its token an
/// HMAC of the sign-in's cookie and the request) allows, which is remembered and audited and
/// answers the client with a code, or declines, which the client hears as `access_denied`.
/// Anonymous in the routes' table: the browser's sign-in (its cookie) is the caller.
struct ConsentRoutes {
    let flows: LoginFlows
    let completion: LoginCompletion
    let clients: AppClients

    static func url(issuer: String, clientID: String, handle: String, language: Language) -> String {
        URLComponents.appending([("client_id", clientID), ("continuation", handle), ("ui_locales", language.rawValue)], to: issuer + "/oauth/consent")
    }

    func register(on routes: DeclaredRoutes) {
        routes.get("/oauth/consent", .anonymous, surface: .page) { request, _ in try await page(request) }
        routes.post("/oauth/consent", .loginForm, surface: .page) { request, _ in try await answer(request) }
    }

    private func page(_ httpRequest: Request) async throws -> Response {
        let fields = try? FormFields.parse(httpRequest.uri.query ?? "")
        let language = fields?["ui_locales"].map { Language(uiLocales: $0) } ?? PortalLanguage.of(httpRequest)
        guard let fields, let handle = fields["continuation"], let reference = flows.singleSignOn.reference(in: httpRequest),
              let browser = try await flows.browserSession(of: httpRequest),
              let waiting = try await flows.consentRequest(handle, clientID: fields["client_id"], take: false), waiting.signIn == browser.id,
              let client = clients.client(waiting.request.clientID)
        else { return expired(language) }
        let scopes = ClaimScopes(waiting.request.scope)
        var claims: [String] = []
        if scopes.name { claims.append(BrokerText.consentName.text(language)) }
        if scopes.email { claims.append(BrokerText.consentEmail.text(language)) }
        if scopes.organisations { claims.append(BrokerText.consentOrganisations.text(language)) }
        let values = ConsentView(
            heading: BrokerText.consentHeading(client.name ?? client.id, language: language), claims: claims, clientID: client.id, handle: handle,
            token: flows.binding.consentToken(reference: reference, handle: handle)
        )
        let issuer = clients.address.current, clientID = client.id
        let switchLanguage: @Sendable (Language) -> String = { Self.url(issuer: issuer, clientID: clientID, handle: handle, language: $0) }
        return BrokerPage.response(BrokerPage.render("broker_consent", language: language, switchLanguage: switchLanguage, values: values))
    }

    private func answer(_ httpRequest: Request) async throws -> Response {
        let fields = try await httpRequest.formFields()
        let language = PortalLanguage.of(httpRequest)
        guard let handle = fields["continuation"], let reference = flows.singleSignOn.reference(in: httpRequest),
              flows.binding.isConsentToken(fields["token"], reference: reference, handle: handle)
        else { return BrowserBinding.otherBrowser(httpRequest) }
        guard let browser = try await flows.browserSession(of: httpRequest), let user = try await flows.store.user(id: browser.userId),
              let waiting = try await flows.consentRequest(handle, clientID: fields["client_id"], take: true), waiting.signIn == browser.id
        else { return expired(language) }
        let request = waiting.request
        let now = flows.now()
        // A sign-in that met max_age when the page was shown may have grown older than it since.
        if let maxAge = request.maxAge, now.timeIntervalSince(Date(millisecondsSince1970: browser.authTime)) > TimeInterval(maxAge) {
            return expired(language)
        }
        guard fields["decision"] == "allow" else {
            try await flows.store.append(AuditEvent(
                occurredAt: now, action: .consentDeclined, outcome: "success", actorUserID: UUID(uuidString: user.id),
                subjectType: "client", subjectID: request.clientID, details: [:]
            ))
            let location = completion.appRedirect(request, [
                ("error", OAuthErrorCode.accessDenied.rawValue), ("error_description", "The person did not allow this service to have their details."),
            ])
            return Responses.redirect(to: location, status: .seeOther)
        }
        let earlier = try await flows.store.consent(userID: user.id, clientID: request.clientID)
        let granted = ClaimScopes(request.scope).claimScopes.union(earlier.map { ClaimScopes($0.scope).scopes } ?? [])
        try await flows.store.grantConsent(
            Consent(userID: user.id, clientID: request.clientID, scope: granted.sorted().joined(separator: " "), grantedAt: now),
            audit: AuditEvent(
                occurredAt: now, action: .consentGranted, outcome: "success", actorUserID: UUID(uuidString: user.id),
                subjectType: "client", subjectID: request.clientID, details: ["scope": granted.sorted().joined(separator: " ")]
            )
        )
        return Responses.redirect(to: try await completion.fromBrowserSession(request, browser, user: user), status: .seeOther)
    }

    private func expired(_ language: Language) -> Response {
        let values = BrokerNoticeView(heading: BrokerText.loginCannotContinue.text(language), message: BrokerText.consentExpired.text(language))
        return BrokerPage.response(BrokerPage.render("broker_notice", language: language, switchLanguage: nil, values: values), status: .badRequest)
    }
}

/// What `broker_consent` reads.
struct ConsentView: PageValues {
    let heading: String
    /// What the client gets besides who it is, one line each.
    let claims: [String]
    let clientID: String
    let handle: String
    let token: String
}
