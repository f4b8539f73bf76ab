import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktProtocol
import PortvaktStorage

/// `GET /v1/me`: who is signed in, their organisations and roles, how this session was opened,
/// which home screen the app opens for them, notices to show once (`ui_locales` picks nb, nn or
/// en), and the brand of the app's client (its `brand` in the clients file).
struct MeRoutes {
    let profile: Profile
    let clients: AppClients
    let brands: Brands

    func register(on routes: DeclaredRoutes) {
        routes.get("/v1/me", .member, surface: .json) { request, context in
            let caller = try context.caller()
            let view: Profile.View
            do {
                view = try await profile.view(of: caller.actor)
            } catch let refusal as DomainError where refusal.kind == .notFound {
                throw OAuthFailure.sessionExpired
            }
            let language = Language(uiLocales: request.uri.queryParameters.get("ui_locales"))
            let notice = UserMessage.personnummerNotRetrieved
            // The token's client, not anything the request says: an app shows the brand it was registered with.
            let brand: MeResponse.Brand? = if let client = clients.client(caller.claims.clientID) {
                await brands.app(for: client.policy, issuer: clients.address.current)
            } else { nil }
            return try APIResponse.json(MeResponse(
                user: .init(id: view.user.id, name: view.user.displayName, email: view.user.email),
                organisations: view.organisations.map {
                    .init(id: $0.roles.organisationID, slug: $0.roles.slug, name: $0.name, roles: $0.roles.roles.map(\.rawValue))
                },
                homeScreen: view.homeScreen.rawValue,
                session: .init(amr: caller.claims.amr, authTime: caller.claims.authTime, deviceId: caller.session.deviceId),
                notices: view.personnummerNotRetrieved ? [MeResponse.Notice(messageID: notice.id, message: notice.text(language))] : [],
                brand: brand
            ))
        }
    }
}
