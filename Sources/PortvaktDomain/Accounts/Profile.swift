import Foundation
import PortvaktCore
import PortvaktModels

/// What reading one's own profile uses.
public protocol ProfileStore: Sendable {
    func user(id: String) async throws -> User?
    func organisations() async throws -> [Organisation]
    func takeAbsentNotices(userID: String, now: Date) async throws -> [MemberSyncEntry]
}

/// The signed-in member's own view: who they are, their organisations by name, the home screen
/// their roles open, and what to tell them once.
public struct Profile: Sendable {
    let store: any ProfileStore
    let now: @Sendable () -> Date

    public init(store: any ProfileStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    public struct View: Sendable {
        public let user: User
        /// Each of the actor's organisations with its name.
        public let organisations: [(roles: OrganisationRoles, name: String)]
        public let homeScreen: HomeScreen
        /// S9.5: the last BankID or Vipps login brought no personnummer; told once, then cleared.
        public let personnummerNotRetrieved: Bool
    }

    /// The actor's account; nil when it is gone.
    public func user(of actor: Actor) async throws -> User? {
        try await store.user(id: actor.userID)
    }

    /// - Throws: ``DomainError/notFound(_:)`` when the account is gone.
    public func view(of actor: Actor) async throws -> View {
        guard let user = try await store.user(id: actor.userID) else { throw DomainError.notFound("user") }
        let names = Dictionary(uniqueKeysWithValues: try await store.organisations().map { ($0.id, $0.name) })
        let absent = try await store.takeAbsentNotices(userID: user.id, now: now())
        return View(
            user: user, organisations: actor.organisations.map { ($0, names[$0.organisationID] ?? $0.slug) },
            homeScreen: HomeScreen(for: actor.organisations.flatMap(\.roles)), personnummerNotRetrieved: !absent.isEmpty
        )
    }
}

/// The screen the app opens after login, by the member's highest role in any organisation.
public enum HomeScreen: String, Sendable {
    case organisationAdmin = "organisation_admin"
    case coordinatorOverview = "coordinator_overview"
    case peerMentorActivities = "peer_mentor_activities"
    /// Signed in, but no organisation has given them a role (yet).
    case noOrganisation = "no_organisation"

    public init(for roles: [Role]) {
        self = roles.contains(.orgAdmin) ? .organisationAdmin
            : roles.contains(.coordinator) ? .coordinatorOverview
            : roles.contains(.peerMentor) ? .peerMentorActivities
            : .noOrganisation
    }
}
