import Hummingbird
import HummingbirdAuth
import PortvaktDomain
import PortvaktProtocol

/// Enforces each route's declared caller (``RoutePolicy``, in the ``RouteTable``) before its handler runs: for a
/// member's route it authenticates the access token (and a device-key step-up where the route's
/// action asks for one), for a role's route it also checks the role in the path's organisation,
/// and puts the caller in the context (`context.caller()`). Refusals are thrown
/// (``ErrorAnswerMiddleware`` answers them as the API's OAuth JSON). Anonymous, portal, operator, member-system (SCIM) and sandbox routes check their own credentials.
///
/// The server does not start with a route that has no declaration (``RouteTable/undeclared(_:)``),
/// so the only routes passed through without one are the 405 answers for unserved methods.
struct RoutePolicyMiddleware: AuthenticatorMiddleware {
    typealias Context = PortvaktRequestContext
    let callers: CallerAuthenticator
    let routes: RouteTable

    func authenticate(request: Request, context: Context) async throws -> APICaller? {
        guard let policy = routes.declaration(of: request, context: context)?.policy else { return nil }
        switch policy.caller {
        case .member:
            return try await caller(request, for: policy)
        case .role(let roles):
            let caller = try await caller(request, for: policy)
            let organisation = try caller.organisation(context.parameters.get("slug"))
            try caller.actor.require(roles, in: organisation)
            return caller
        case .anonymous, .portalMember, .portalRole, .operatorToken, .memberSystemToken, .sandbox:
            return nil
        }
    }

    /// The token's caller. For an action only a step-up opens, a token with it: nothing reaches
    /// the handler without the policy's step-up. An action a fresh login also opens (a device
    /// key's enrolment) takes the caller as the token has it, and its handler asks the policy.
    private func caller(_ request: Request, for policy: RoutePolicy) async throws -> APICaller {
        guard let action = policy.action, !ActionPolicy.of(action).stepUps.isDisjoint(with: [.deviceKey, .freshPassword]),
              ActionPolicy.of(action).stepUps.isDisjoint(with: [.freshElectronicID, .freshPasswordLogin, .freshPasskey]) else {
            return try await callers.caller(of: request, anyRelyingParty: policy.anyRelyingParty)
        }
        let caller: APICaller
        if let stepUp = StepUpAction(rawValue: action.rawValue) {
            caller = try await callers.caller(of: request, stepUp: stepUp)
        } else {
            caller = try await callers.caller(of: request)
        }
        guard caller.satisfies(action, at: callers.now()) else { throw DomainError.stepUpRequired(action) }
        return caller
    }
}
