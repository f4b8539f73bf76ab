import PortvaktCore
import PortvaktDomain

/// Who may call each route, declared once, beside the ``ActionPolicy`` of the sensitive actions
/// the routes reach. The server refuses to start with a route not declared here. The
/// authorization matrix test states each route's expected outcome per caller on its own
/// (`Tests/PortvaktServerTests/Security/ExpectedAccess.swift`), calls every route with every kind
/// of caller, and fails where a declaration here is weaker than that specification.
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

    static func of(_ route: String) -> RoutePolicy? {
        if let declared = declared[route] { return declared }
        let path = route.split(separator: " ", maxSplits: 1).last.map(String.init) ?? ""
        return path == "/sandbox" || path.hasPrefix("/sandbox/") ? RoutePolicy(caller: .sandbox) : nil
    }

    /// The routes of `routes` (`METHOD /path`) without a declaration; the server refuses to start with any.
    static func undeclared(_ routes: [String]) -> [String] {
        routes.filter { of($0) == nil }
    }

    private static let administrators: Set<Role> = [.orgAdmin]
    private static let coordinators: Set<Role> = [.coordinator, .orgAdmin]

    /// `METHOD /path`, with `{parameter}`s as the router lists them.
    static let declared: [String: RoutePolicy] = [
        // The start page, the portal's sign-in and language, health, keys and descriptions.
        "GET /": RoutePolicy(caller: .anonymous),
        "GET /language": RoutePolicy(caller: .anonymous),
        "GET /portal/login": RoutePolicy(caller: .anonymous),
        "GET /portal/callback": RoutePolicy(caller: .anonymous),
        "GET /health/live": RoutePolicy(caller: .anonymous),
        "GET /health/ready": RoutePolicy(caller: .anonymous),
        "GET /openapi.json": RoutePolicy(caller: .anonymous),
        "GET /.well-known/jwks.json": RoutePolicy(caller: .anonymous),
        "GET /.well-known/openid-configuration": RoutePolicy(caller: .anonymous),
        "GET /assets/portvakt.css": RoutePolicy(caller: .anonymous),
        "GET /metrics": RoutePolicy(caller: .operatorToken),

        // OAuth and the logins: the protocol's own checks.
        "GET /oauth/authorize": RoutePolicy(caller: .anonymous),
        "POST /oauth/par": RoutePolicy(caller: .anonymous),
        "POST /oauth/token": RoutePolicy(caller: .anonymous),
        "POST /oauth/revoke": RoutePolicy(caller: .anonymous),
        // RFC 7662: the confidential client authenticates itself, and learns only of its own tokens.
        "POST /oauth/introspect": RoutePolicy(caller: .anonymous),
        "POST /oauth/password": RoutePolicy(caller: .anonymous, sameOriginForm: true),
        // The flow's 256-bit handle is the credential, as for the password form; the passkey's
        // signature proves the person (S18.2).
        "POST /oauth/passkey/options": RoutePolicy(caller: .anonymous, sameOriginForm: true),
        "POST /oauth/passkey": RoutePolicy(caller: .anonymous, sameOriginForm: true),
        "GET /assets/passkey.js": RoutePolicy(caller: .anonymous),
        // S15: the claim's one-time handle is the caller's credential.
        "POST /oauth/claim/email": RoutePolicy(caller: .anonymous, sameOriginForm: true),
        "POST /oauth/claim/code": RoutePolicy(caller: .anonymous, sameOriginForm: true),
        "POST /oauth/claim/cancel": RoutePolicy(caller: .anonymous, sameOriginForm: true),
        "GET /oauth/callback/bankid": RoutePolicy(caller: .anonymous),
        "GET /oauth/callback/vipps": RoutePolicy(caller: .anonymous),
        "GET /oauth/end-session": RoutePolicy(caller: .anonymous),
        "POST /oauth/end-session": RoutePolicy(caller: .anonymous),
        "GET /oauth/userinfo": RoutePolicy(caller: .member, anyRelyingParty: true),
        "POST /bankid/orders": RoutePolicy(caller: .anonymous),
        "POST /bankid/orders/collect": RoutePolicy(caller: .anonymous),
        "POST /bankid/orders/qr": RoutePolicy(caller: .anonymous),
        "POST /bankid/orders/cancel": RoutePolicy(caller: .anonymous),
        "GET /oauth/bankid/other-device": RoutePolicy(caller: .anonymous),
        "GET /oauth/bankid/other-device.js": RoutePolicy(caller: .anonymous),
        "POST /oauth/bankid/other-device/collect": RoutePolicy(caller: .anonymous, sameOriginForm: true),
        "POST /oauth/bankid/other-device/cancel": RoutePolicy(caller: .anonymous, sameOriginForm: true),
        // The invitation's one-time token is the caller's credential.
        "GET /portal/password/{token}": RoutePolicy(caller: .anonymous),
        "POST /portal/password/{token}": RoutePolicy(caller: .anonymous),

        // Device keys: registering needs a BankID or Vipps login of the last minutes (DeviceTrust);
        // a challenge for an unlock is anonymous (the device's signature is the credential).
        "POST /v1/devices": RoutePolicy(caller: .member, action: .deviceEnrol),
        "GET /v1/devices": RoutePolicy(caller: .member),
        "DELETE /v1/devices/{id}": RoutePolicy(caller: .member),
        "POST /v1/devices/{id}/challenges": RoutePolicy(caller: .anonymous),
        "POST /v1/step-up": RoutePolicy(caller: .member),
        "POST /v1/step-up/password": RoutePolicy(caller: .member),

        // The app's data: each member sees their own rows, coordinators and administrators their organisation's.
        "GET /v1/me": RoutePolicy(caller: .member),
        "GET /v1/activities": RoutePolicy(caller: .member),
        "POST /v1/activities": RoutePolicy(caller: .member),
        "GET /v1/contacts": RoutePolicy(caller: .member),
        "GET /v1/contacts/{id}": RoutePolicy(caller: .member, action: .contactsRead),
        "POST /v1/contacts": RoutePolicy(caller: .member),
        "GET /v1/expenses": RoutePolicy(caller: .member),
        "POST /v1/expenses": RoutePolicy(caller: .member, action: .expensesSubmit),

        // Running an organisation over JSON.
        "GET /v1/organisations/{slug}/members": RoutePolicy(caller: .role(coordinators)),
        "DELETE /v1/organisations/{slug}/members/{user}/devices": RoutePolicy(caller: .role(administrators), action: .devicesRemoveAll),
        "POST /v1/organisations/{slug}/users/merge": RoutePolicy(caller: .role(administrators), action: .accountsMerge),
        "GET /v1/organisations/{slug}/member-sync": RoutePolicy(caller: .role(administrators)),
        // Masked for any administrator; in full only under the action's policy.
        "GET /v1/organisations/{slug}/member-sync/{id}": RoutePolicy(caller: .role(administrators), action: .personnummerReveal),
        "POST /v1/organisations/{slug}/member-sync/{id}/resolve": RoutePolicy(caller: .role(administrators), action: .conflictResolve),
        "GET /v1/organisations/{slug}/outbox": RoutePolicy(caller: .role(administrators)),
        "POST /v1/organisations/{slug}/outbox/{id}/retry": RoutePolicy(caller: .role(administrators)),

        // My account in the portal.
        "POST /portal/logout": RoutePolicy(caller: .portalMember),
        "GET /account": RoutePolicy(caller: .portalMember),
        "GET /account/data": RoutePolicy(caller: .portalMember),
        "POST /account/devices/{id}/remove": RoutePolicy(caller: .portalMember),
        "POST /account/sessions/{id}/end": RoutePolicy(caller: .portalMember),
        "POST /account/sessions/end-others": RoutePolicy(caller: .portalMember),
        // Adding a passkey needs a BankID or Vipps login within five minutes (S18.1).
        "POST /account/passkeys/options": RoutePolicy(caller: .portalMember, action: .passkeyRegister),
        "POST /account/passkeys": RoutePolicy(caller: .portalMember, action: .passkeyRegister),
        "POST /account/passkeys/{id}/remove": RoutePolicy(caller: .portalMember),

        // An organisation's administration in the portal.
        "GET /admin": RoutePolicy(caller: .portalMember),
        "GET /admin/{slug}": RoutePolicy(caller: .portalRole(administrators)),
        "GET /admin/{slug}/members": RoutePolicy(caller: .portalRole(coordinators)),
        "GET /admin/{slug}/members/{id}": RoutePolicy(caller: .portalRole(administrators)),
        "POST /admin/{slug}/members/{id}/devices/remove": RoutePolicy(caller: .portalRole(administrators), action: .devicesRemoveAll),
        "POST /admin/{slug}/members/{id}/invite": RoutePolicy(caller: .portalRole(administrators)),
        // Suspending a membership can end every way in of the member: the administrators' step-up (issue 45 item 5).
        "POST /admin/{slug}/members/{id}/suspend": RoutePolicy(caller: .portalRole(administrators), action: .membershipSuspend),
        "POST /admin/{slug}/members/{id}/suspension/lift": RoutePolicy(caller: .portalRole(administrators), action: .membershipSuspend),
        "GET /admin/{slug}/sync": RoutePolicy(caller: .portalRole(administrators)),
        "GET /admin/{slug}/sync/{id}": RoutePolicy(caller: .portalRole(administrators)),
        "POST /admin/{slug}/sync/{id}/reveal": RoutePolicy(caller: .portalRole(administrators), action: .personnummerReveal),
        "POST /admin/{slug}/sync/{id}/resolve": RoutePolicy(caller: .portalRole(administrators), action: .conflictResolve),
        "GET /admin/{slug}/deliveries": RoutePolicy(caller: .portalRole(administrators)),
        "POST /admin/{slug}/deliveries/{id}/retry": RoutePolicy(caller: .portalRole(administrators)),
        "GET /admin/{slug}/merge": RoutePolicy(caller: .portalRole(administrators)),
        "GET /admin/{slug}/merge/preview": RoutePolicy(caller: .portalRole(administrators)),
        "POST /admin/{slug}/merge": RoutePolicy(caller: .portalRole(administrators), action: .accountsMerge),
        "GET /admin/{slug}/merge/done": RoutePolicy(caller: .portalRole(administrators)),
        "GET /admin/{slug}/audit": RoutePolicy(caller: .portalRole(administrators)),
        "GET /admin/{slug}/audit/export": RoutePolicy(caller: .portalRole(administrators)),

        // SCIM 2.0 for the member systems (issue 45): each organisation's own token, its own records.
        "GET /scim/v2/ServiceProviderConfig": RoutePolicy(caller: .memberSystemToken),
        "GET /scim/v2/ResourceTypes": RoutePolicy(caller: .memberSystemToken),
        "GET /scim/v2/ResourceTypes/{id}": RoutePolicy(caller: .memberSystemToken),
        "GET /scim/v2/Schemas": RoutePolicy(caller: .memberSystemToken),
        "GET /scim/v2/Schemas/{id}": RoutePolicy(caller: .memberSystemToken),
        "POST /scim/v2/Users": RoutePolicy(caller: .memberSystemToken),
        "GET /scim/v2/Users": RoutePolicy(caller: .memberSystemToken),
        "GET /scim/v2/Users/{id}": RoutePolicy(caller: .memberSystemToken),
        "PUT /scim/v2/Users/{id}": RoutePolicy(caller: .memberSystemToken),
        "PATCH /scim/v2/Users/{id}": RoutePolicy(caller: .memberSystemToken),
        "DELETE /scim/v2/Users/{id}": RoutePolicy(caller: .memberSystemToken),
    ]
}
