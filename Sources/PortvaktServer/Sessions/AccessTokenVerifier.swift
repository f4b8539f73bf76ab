import Foundation
import Hummingbird
import Logging
import PortvaktCore
import PortvaktHTTP
import PortvaktStorage
import PortvaktDomain
import PortvaktModels
import PortvaktProtocol

/// Checks the access token of a resource request: presented as its binding requires (Bearer or
/// DPoP with a proof by its key), valid (``TokenVerifier``), and its session still active.
struct AccessTokenVerifier: Sendable {
    let store: PortvaktStore
    let tokens: TokenVerifier
    let dpop: DPoPCheck
    let logger: Logger
    let now: @Sendable () -> Date

    /// - Throws: 401 `invalid_token` for a token that is not ours or expired; 503
    ///   `temporarily_unavailable` when the keys cannot be read (the app must not log out for that).
    func claims(of token: String, allowExpired: Bool = false) async throws(OAuthFailure) -> AccessTokenClaims {
        let claims: AccessTokenClaims?
        do {
            claims = try await tokens.accessClaims(of: token, allowExpired: allowExpired)
        } catch {
            logger.error("Access tokens cannot be checked: the signing keys could not be read", metadata: ["error": "\(error)"])
            throw .temporarilyUnavailable
        }
        guard let claims else {
            throw OAuthFailure(error: .invalidToken, description: "The access token is invalid or expired.", message: .sessionExpired, status: .unauthorized)
        }
        return claims
    }

    /// The access token of a resource request: `Authorization: Bearer` (RFC 6750) or `DPoP`
    /// (RFC 9449 §7.1) and the token.
    struct Credential {
        let scheme: OAuthFailure.Scheme
        let token: String

        init?(_ request: Request) {
            guard let (scheme, token) = [OAuthFailure.Scheme.bearer, .dpop].lazy
                .compactMap({ scheme in request.authorizationToken(scheme: scheme.rawValue).map { (scheme, $0) } }).first
            else { return nil }
            self.scheme = scheme
            self.token = token
        }
    }

    /// The claims, when the token is valid, presented as its binding requires, and its session
    /// is still active. A token bound to a DPoP key needs the `DPoP` scheme and a proof by that
    /// key for this request; sent as `Bearer` it is refused (RFC 9449 §7.2).
    func activeSession(_ request: Request) async throws(OAuthFailure) -> (claims: AccessTokenClaims, session: Session) {
        guard let credential = Credential(request) else {
            throw OAuthFailure(error: .invalidToken, description: "A Bearer or DPoP access token is required.", status: .unauthorized)
        }
        let claims: AccessTokenClaims
        do {
            claims = try await self.claims(of: credential.token)
        } catch {
            var failure = error
            failure.scheme = credential.scheme
            throw failure
        }
        switch (claims.cnf?.jkt, credential.scheme) {
        case (let bound?, .dpop):
            let key = try await dpop.proofKey(request, at: .resource, accessToken: credential.token)
            guard let key else { throw DPoPCheck.invalid("A DPoP proof is required with a DPoP token.", at: .resource) }
            guard key == bound else { throw DPoPCheck.invalid("The proof is signed by another key than the token is bound to.", at: .resource) }
        case (_?, .bearer):
            throw OAuthFailure(
                error: .invalidToken, description: "This token is bound to a DPoP key: send it as DPoP with a proof.",
                status: .unauthorized, scheme: .dpop
            )
        case (nil, .dpop):
            throw OAuthFailure(error: .invalidToken, description: "This token is not bound to a DPoP key: send it as Bearer.", status: .unauthorized)
        case (nil, .bearer):
            break
        case (_, .basic):
            throw OAuthFailure(error: .invalidToken, description: "A Bearer or DPoP access token is required.", status: .unauthorized)
        }
        let session: Session?
        do {
            session = try await store.session(id: claims.sid)
        } catch {
            logger.error("The session could not be read", metadata: ["error": "\(error)"])
            throw .temporarilyUnavailable
        }
        guard let session, session.isActive(at: now()) else {
            let message = await endedMessage(session)
            throw OAuthFailure(
                error: .invalidToken, description: message == .accountDisabled ? "The account is disabled." : "The session has ended.",
                message: message, status: .unauthorized, scheme: credential.scheme
            )
        }
        return (claims, session)
    }

    /// The app's words for a token of an ended session: "log in again", or, for a session a
    /// disabling ended while the account is disabled still, the words every way in uses then
    /// (issue 45 item 5). The account is read only for such a session, never on a live one.
    private func endedMessage(_ session: Session?) async -> UserMessage {
        guard let session, session.revokedReason == AccountAccess.disabledReason,
              let user = try? await store.user(id: session.userId), user.disabledAt != nil
        else { return .sessionExpired }
        return .accountDisabled
    }
}
