import PortvaktCore
import PortvaktDomain

/// Who may call a route, declared where the route is registered (``DeclaredRoutes``), beside the
/// ``ActionPolicy`` of the sensitive actions the routes reach. The server refuses to start with a
/// route registered without one. The authorization matrix test states each route's expected
/// outcome per caller on its own (`Tests/PortvaktServerTests/Security/ExpectedAccess.swift`),
/// calls every route with every kind of caller, and fails where a declaration is weaker than that
/// specification.
struct RoutePolicy: Sendable, Equatable {
    enum Caller: Sendable, Equatable {
        /// Anyone: the route checks what the protocol gives it (client, PKCE, `state`, a one-time
        /// token, a device's signature), not a session.
        case anonymous
        /// An access token of an active session (`Bearer`, or `DPoP` with a proof by its key).
        case member
        /// A member with one of these roles in the path's organisation (`{slug}`).
        case role(Set<Role>)
        /// A browser with a portal session (and, for a form, its CSRF token).
        case portalMember
        /// A portal session with one of these roles in the path's organisation.
        case portalRole(Set<Role>)
        /// The operator's bearer token (`PORTVAKT_METRICS_TOKEN`).
        case operatorToken
        /// A member system's SCIM token (`portvakt-server scim-token create`), bound to one
        /// organisation: the SCIM routes check it themselves (``SCIMRoutes``) and reach only that
        /// organisation's records. No person's access token or portal session opens them.
        case memberSystemToken
        /// The development sandbox's own simulated providers (never in production).
        case sandbox
    }

    let caller: Caller
    /// The sensitive action the route takes, whose ``ActionPolicy`` it enforces; nil for none.
    var action: SensitiveAction? = nil
    /// A form (or script request) of the broker's own pages: refused when a browser says it
    /// comes from another site (``SameOriginFormMiddleware``).
    var sameOriginForm = false
    /// A member's route any relying party's token opens (`/oauth/userinfo`). Every other
    /// member's route is Portvakt's own API, for the clients registered with `portvakt_api`.
    var anyRelyingParty = false

    /// This policy for a route that takes `action`, a sensitive action whose ``ActionPolicy`` it enforces.
    func taking(_ action: SensitiveAction) -> RoutePolicy {
        var policy = self
        policy.action = action
        return policy
    }
}

/// The policies the routes are declared with.
extension RoutePolicy {
    static let anonymous = RoutePolicy(caller: .anonymous)
    /// Anyone, from a form (or script) of the broker's own login pages posted from this site.
    static let loginForm = RoutePolicy(caller: .anonymous, sameOriginForm: true)
    /// A token of Portvakt's own API clients.
    static let member = RoutePolicy(caller: .member)
    static let administrators = RoutePolicy(caller: .role([.orgAdmin]))
    static let coordinators = RoutePolicy(caller: .role([.coordinator, .orgAdmin]))
    static let portalMember = RoutePolicy(caller: .portalMember)
    static let portalAdministrators = RoutePolicy(caller: .portalRole([.orgAdmin]))
    static let portalCoordinators = RoutePolicy(caller: .portalRole([.coordinator, .orgAdmin]))
    static let operatorToken = RoutePolicy(caller: .operatorToken)
    static let memberSystemToken = RoutePolicy(caller: .memberSystemToken)
    static let sandbox = RoutePolicy(caller: .sandbox)
}
