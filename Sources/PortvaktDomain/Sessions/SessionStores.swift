import Foundation
import PortvaktCore
import PortvaktModels

/// What redeeming codes, rotating refresh tokens and ending sessions read and write.
public protocol SessionStore: Sendable {
    func redeemAuthorizationCode(hash: Data, now: Date) async throws -> CodeRedemption
    func insertRefreshToken(sessionID: String, tokenHash: Data, parentID: String?, expiresAt: Date, now: Date) async throws -> RefreshToken
    func rotateRefreshToken(
        hash: Data, successorHash: Data, clientID: String, dpopJKT: String?, proof: DPoPProofRecord?, idleLifetime: TimeInterval, now: Date
    ) async throws -> RefreshRotation
    func session(id: String) async throws -> Session?
    func session(refreshTokenHash hash: Data, now: Date) async throws -> (session: Session, isCurrent: Bool)?
    func bindSession(id: String, dpopJKT jkt: String) async throws -> Session?
    func revokeSession(id: String, reason: String, now: Date) async throws
    func append(_ event: AuditEvent) async throws
    /// The session's user, asked only of a session a disabling ended (is the account disabled still?).
    func user(id: String) async throws -> User?
    func browserSession(idHash: Data, now: Date) async throws -> BrowserSession?
    @discardableResult
    func endBrowserSession(id: String, reason: String, now: Date) async throws -> Int
}

/// What issuing tokens reads: the user and their roles as they are now.
public protocol TokenIssuerStore: Sendable {
    func user(id: String) async throws -> User?
    func organisationRoles(userID: String) async throws -> [OrganisationRoles]
}
