import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktStorage

/// Who is calling the app's API: a valid access token of an active session, and the user's
/// organisations and roles as the database holds them now (not as the token remembers them).
///
/// What the caller may see and do is the domain's (``Actor``): ``actor`` hands the caller over.
public struct APICaller: Sendable {
    let claims: AccessTokenClaims
    let session: Session
    let organisations: [OrganisationRoles]

    var userID: String { session.userId }

    static func authenticate(_ request: Request, broker: Broker) async throws -> APICaller {
        let (claims, session) = try await AccessTokenVerifier(broker: broker).activeSession(request)
        return APICaller(claims: claims, session: session, organisations: try await broker.store.organisationRoles(userID: session.userId))
    }

    /// Like ``authenticate(_:broker:)``, for a resource behind a biometric step-up for `action`:
    /// without an elevated token for it, or with one that has expired, the answer is a 401
    /// `insufficient_user_authentication` (RFC 9470) rather than `invalid_token`, so the app
    /// asks for Face ID or fingerprint instead of refreshing.
    static func authenticate(_ request: Request, broker: Broker, stepUp action: StepUpAction) async throws -> APICaller {
        let verifier = AccessTokenVerifier(broker: broker)
        let credential = AccessTokenVerifier.Credential(request)
        func stepUpRequired(_ description: String) -> OAuthFailure {
            var failure = OAuthFailure.stepUpRequired(action, description)
            failure.scheme = credential?.scheme ?? .bearer
            return failure
        }
        if let token = credential?.token, let claims = try? await verifier.claims(of: token, allowExpired: true),
           claims.stepUp == action.rawValue, claims.exp <= Int(broker.now().timeIntervalSince1970) {
            throw stepUpRequired("The step-up for \(action.rawValue) has expired.")
        }
        let caller = try await authenticate(request, broker: broker)
        guard caller.claims.stepUp == action.rawValue else {
            throw stepUpRequired("A biometric step-up for \(action.rawValue) is required.")
        }
        return caller
    }

    /// The caller's roles in the organisation with this slug.
    /// - Throws: 403 when the caller is not a member there (other organisations' data stays hidden).
    func organisation(_ slug: String?) throws(OAuthFailure) -> OrganisationRoles {
        guard let slug else { throw OAuthFailure.invalidRequest("organisation is required.") }
        guard let organisation = organisations.first(where: { $0.slug == slug }) else { throw OAuthFailure.notAllowed }
        return organisation
    }

    /// The caller as the domain's operations take them.
    var actor: Actor { Actor(session: session, organisations: organisations, stepUpClaim: claims.stepUp) }

    /// Whether this caller's session and token meet `action`'s policy now (``ActionPolicy``).
    func satisfies(_ action: SensitiveAction, at now: Date) -> Bool {
        actor.satisfies(action, at: now)
    }

    func require(_ roles: Set<Role>, in organisation: OrganisationRoles) throws(OAuthFailure) {
        guard organisation.roles.contains(where: roles.contains) else { throw OAuthFailure.notAllowed }
    }
}

extension PortvaktRequestContext {
    /// The caller ``RoutePolicyMiddleware`` authenticated. Its absence is a server bug (a route
    /// declared anonymous that needs a caller), answered 500, never a bare 401.
    func caller() throws(OAuthFailure) -> APICaller {
        guard let identity else {
            throw OAuthFailure(error: "server_error", description: "This route has no authenticated caller.", status: .internalServerError)
        }
        return identity
    }
}
