import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktStorage

/// `GET /oauth/members-only` (anonymous): where a login ends when the client registered
/// `organisations` and the person belongs to none of them (``LoginCompletion/membersOnlyPage(_:organisations:)``).
/// The page names the organisations; its one link takes the client `access_denied`, and only to a
/// redirect URI registered for that client, as an `/oauth/authorize` error would.
struct MembersOnlyRoutes {
    static let path = "/oauth/members-only"
    let clients: AppClients
    let store: PortvaktStore

    func register(on routes: DeclaredRoutes) {
        routes.get(Self.path, .anonymous, surface: .page) { request, _ in
            try await page(request)
        }
    }

    private func page(_ request: Request) async throws -> Response {
        guard let fields = try? FormFields.parse(request.uri.query ?? ""), let id = fields["client_id"], let client = clients.client(id),
              !client.organisations.isEmpty, let redirectURI = fields["redirect_uri"], client.allowsRedirect(redirectURI)
        else {
            return BrokerPage.problem(.invalidLoginRequest, reason: "client_id or redirect_uri is not registered", language: PortalLanguage.of(request))
        }
        let language = fields["ui_locales"].map { Language(uiLocales: $0) } ?? PortalLanguage.of(request)
        var names: [String] = []
        for slug in client.organisations {
            names.append(try await store.organisation(slug: slug)?.name ?? slug.uppercased())
        }
        let message = BrokerText.membersOnly(names, language: language)
        let back = LoginCompletion.redirect(
            to: redirectURI, [("error", "access_denied"), ("error_description", BrokerText.membersOnly(names, language: .en))],
            state: fields["state"], issuer: clients.address.current
        )
        let values = BrokerNoticeView(
            heading: BrokerText.notForYou.text(language), message: message,
            action: .init(href: back, label: BrokerText.backToService(client.name, language: language))
        )
        return BrokerPage.response(BrokerPage.render("broker_notice", language: language, switchLanguageURL: nil, values: values), status: .forbidden)
    }
}
