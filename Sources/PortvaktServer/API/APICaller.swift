import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktProtocol
import PortvaktStorage

/// Who is calling the app's API: a valid access token of an active session, and the user's
/// organisations and roles as the database holds them now (not as the token remembers them).
///
/// What the caller may see and do is the domain's (``Actor``): ``actor`` hands the caller over.
public struct APICaller: Sendable {
    let claims: AccessTokenClaims
    let session: Session
    let organisations: [OrganisationRoles]
    var highAssuranceOrganisations: Set<String> = []

    var userID: String { session.userId }

    /// The caller's roles in the organisation with this slug (``Actor/organisation(_:)``).
    /// - Throws: 403 when the caller is not a member there (other organisations' data stays hidden).
    func organisation(_ slug: String?) throws(DomainError) -> OrganisationRoles {
        guard let slug else { throw .invalidInput("organisation is required.") }
        return try actor.organisation(slug)
    }

    /// The caller as the domain's operations take them.
    var actor: Actor {
        Actor(
            session: session, organisations: organisations, stepUp: StepUpGrant(claim: claims.stepUp, acr: claims.acr),
            highAssuranceOrganisations: highAssuranceOrganisations
        )
    }

    /// Whether this caller's session and token meet `action`'s policy now (``ActionPolicy``).
    func satisfies(_ action: SensitiveAction, at now: Date) -> Bool {
        actor.satisfies(action, at: now)
    }
}

extension PortvaktRequestContext {
    /// The caller ``RoutePolicyMiddleware`` authenticated. Its absence is a server bug (a route
    /// declared anonymous that needs a caller), answered 500, never a bare 401.
    func caller() throws(OAuthFailure) -> APICaller {
        guard let identity else {
            throw OAuthFailure(error: .serverError, description: "This route has no authenticated caller.", status: .internalServerError)
        }
        return identity
    }
}
