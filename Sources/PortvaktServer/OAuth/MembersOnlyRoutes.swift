import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktProtocol

/// `GET /oauth/members-only` (anonymous): where a login ends when the client registered
/// `organisations` and the person belongs to none of them (``LoginCompletion/membersOnlyPage(_:organisations:)``).
/// The page names the organisations; its one link takes the client `access_denied`, and only to a
/// redirect URI registered for that client, as an `/oauth/authorize` error would.
struct MembersOnlyRoutes {
    let clients: AppClients
    let organisations: any AdministrationReadStore
    let brands: Brands

    func register(on routes: DeclaredRoutes) {
        routes.get("/oauth/members-only", .anonymous, surface: .page) { request, _ in
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
            names.append(try await organisations.organisation(slug: slug)?.name ?? slug.uppercased())
        }
        let message = BrokerText.membersOnly(names, language: language)
        // The client hears what it hears of someone no organisation has: that a person belongs to
        // another disability organisation is not its to learn.
        let back = LoginCompletion.redirect(
            to: redirectURI,
            [("error", OAuthErrorCode.accessDenied.rawValue), ("error_description", UserMessage.notRegistered.text(.en)), ("message_id", UserMessage.notRegistered.id)],
            state: fields["state"], issuer: clients.address.current
        )
        let values = BrokerNoticeView(
            heading: BrokerText.notForYou.text(language), message: message,
            action: .init(href: back, label: BrokerText.backToService(client.name, language: language))
        )
        let page = BrokerPage.render("broker_notice", language: language, switchLanguage: nil, brand: await brands.view(for: client.policy), values: values)
        return BrokerPage.response(page, status: .forbidden)
    }
}
