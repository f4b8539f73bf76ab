import Foundation
import Hummingbird
import PortvaktCore
import PortvaktProtocol
import PortvaktStorage

/// Finds the API's caller: a valid access token of an active session, and the user's
/// organisations and roles as the database holds them now (not as the token remembers them).
struct CallerAuthenticator: Sendable {
    let verifier: AccessTokenVerifier
    let store: PortvaktStore
    /// `PORTVAKT_HIGH_ASSURANCE_ORGANISATIONS`.
    var highAssuranceOrganisations: Set<String> = []
    /// The clients whose tokens open Portvakt's own API (`portvakt_api`).
    var portvaktAPIClients: Set<String> = []
    let now: @Sendable () -> Date

    /// - Parameter anyRelyingParty: the route is one every relying party's token opens
    ///   (userinfo); otherwise the token must be of a `portvakt_api` client (403 `insufficient_scope`).
    func caller(of request: Request, anyRelyingParty: Bool = false) async throws -> APICaller {
        let (claims, session) = try await verifier.activeSession(request)
        guard anyRelyingParty || portvaktAPIClients.contains(claims.clientID) else {
            throw OAuthFailure(
                error: .insufficientScope, description: "This client's tokens open only /oauth/userinfo, not Portvakt's API.",
                message: .notAllowed, status: .forbidden, scheme: claims.cnf == nil ? .bearer : .dpop
            )
        }
        return APICaller(
            claims: claims, session: session, organisations: try await store.organisationRoles(userID: session.userId),
            highAssuranceOrganisations: highAssuranceOrganisations
        )
    }

    /// Like ``caller(of:)``, for a resource behind a biometric step-up for `action`:
    /// without an elevated token for it, or with one that has expired, the answer is a 401
    /// `insufficient_user_authentication` (RFC 9470) rather than `invalid_token`, so the app
    /// asks for Face ID or fingerprint instead of refreshing.
    func caller(of request: Request, stepUp action: StepUpAction) async throws -> APICaller {
        let credential = AccessTokenVerifier.Credential(request)
        func stepUpRequired(_ description: String) -> OAuthFailure {
            var failure = OAuthFailure.stepUpRequired(action, description)
            failure.scheme = credential?.scheme ?? .bearer
            return failure
        }
        if let token = credential?.token, let claims = try? await verifier.claims(of: token, allowExpired: true),
           claims.stepUp == action.rawValue, claims.exp <= Int(now().timeIntervalSince1970) {
            throw stepUpRequired("The step-up for \(action.rawValue) has expired.")
        }
        let authenticated = try await caller(of: request)
        guard authenticated.claims.stepUp == action.rawValue else {
            throw stepUpRequired("A step-up for \(action.rawValue) is required: confirm with biometrics or the password.")
        }
        return authenticated
    }
}
