import Foundation
import Hummingbird
import PortvaktCore
import PortvaktHTTP
import PortvaktStorage

/// `GET /v1/me`: who is signed in, their organisations and roles, how this session was opened,
/// which home screen the app opens for them, and notices to show once (`ui_locales` picks nb or en).
struct MeRoutes {
    let broker: Broker

    func register(on router: Router<PortvaktRequestContext>) {
        router.get("/v1/me") { request, context in
            let caller = try context.caller()
            guard let user = try await broker.store.user(id: caller.userID) else { throw OAuthFailure.sessionExpired }
            let names = Dictionary(uniqueKeysWithValues: try await broker.store.organisations().map { ($0.id, $0.name) })
            // S9.5: a login without a personnummer is told so, once.
            let absent = try await broker.store.takeAbsentNotices(userID: user.id, now: broker.now())
            let language = Language(uiLocales: request.uri.queryParameters.get("ui_locales"))
            let notices = absent.isEmpty ? [] : [Me.Notice(messageID: UserMessage.personnummerNotRetrieved.id, message: UserMessage.personnummerNotRetrieved.text(language))]
            return try APIResponse.json(Me(
                user: .init(id: user.id, name: user.displayName, email: user.email),
                organisations: caller.organisations.map {
                    .init(id: $0.organisationID, slug: $0.slug, name: names[$0.organisationID] ?? $0.slug, roles: $0.roles.map(\.rawValue))
                },
                homeScreen: HomeScreen(for: caller.organisations.flatMap(\.roles)).rawValue,
                session: .init(amr: caller.claims.amr, authTime: caller.claims.authTime, deviceId: caller.session.deviceId),
                notices: notices
            ))
        }
    }
}

/// The screen the app opens after login, by the user's highest role in any organisation.
enum HomeScreen: String {
    case organisationAdmin = "organisation_admin"
    case coordinatorOverview = "coordinator_overview"
    case peerMentorActivities = "peer_mentor_activities"
    /// Signed in, but no organisation has given them a role (yet).
    case noOrganisation = "no_organisation"

    init(for roles: [Role]) {
        self = roles.contains(.orgAdmin) ? .organisationAdmin
            : roles.contains(.coordinator) ? .coordinatorOverview
            : roles.contains(.peerMentor) ? .peerMentorActivities
            : .noOrganisation
    }
}

private struct Me: Encodable {
    struct User: Encodable {
        let id: String
        let name: String
        let email: String?
    }
    struct Organisation: Encodable {
        let id: String
        let slug: String
        let name: String
        let roles: [String]
    }
    struct Session: Encodable {
        let amr: [String]
        let authTime: Int
        let deviceId: String?
    }

    /// Something to tell the user once, such as a personnummer that could not be retrieved.
    struct Notice: Encodable {
        let messageID: String
        let message: String
    }

    let user: User
    let organisations: [Organisation]
    let homeScreen: String
    let session: Session
    let notices: [Notice]
}
