import Foundation
import Logging
import PortvaktCore
import PortvaktModels
import PortvaktProtocol

/// Sessions from the token endpoint's side: redeeming codes, rotating refresh tokens, ending
/// sessions. Every refusal is a ``GrantRefusal`` the app can act on.
public struct SessionService: Sendable {
    let store: any SessionStore
    let tokens: TokenIssuer
    let verifier: TokenVerifier
    let refreshSecret: RefreshTokenSecret
    let idleLifetime: TimeInterval
    /// Per client that registered `organisations`: the slugs whose members alone it admits, checked
    /// again at every refresh, so a person who left the organisation is signed out there.
    let clientOrganisations: [String: [String]]
    let logger: Logger
    public let now: @Sendable () -> Date

    public init(
        store: any SessionStore, tokens: TokenIssuer, verifier: TokenVerifier, refreshSecret: RefreshTokenSecret, idleLifetime: TimeInterval,
        clientOrganisations: [String: [String]] = [:], logger: Logger, now: @escaping @Sendable () -> Date
    ) {
        self.clientOrganisations = clientOrganisations
        self.store = store
        self.tokens = tokens
        self.verifier = verifier
        self.refreshSecret = refreshSecret
        self.idleLifetime = idleLifetime
        self.logger = logger
        self.now = now
    }

    /// `authorization_code` (RFC 6749 §4.1.3) with PKCE S256 (RFC 7636 §4.6). The code is gone
    /// after the first attempt; a failed attempt also ends the session the code was for.
    /// With `proofKey` (the request's DPoP key) the session's tokens are bound to that key.
    public func redeem(code: String, clientID: String, redirectURI: String?, verifier: String?, proofKey: String?) async throws -> TokenResponse {
        let (session, redeemed) = try await redeemSession(code: code, clientID: clientID, redirectURI: redirectURI, verifier: verifier, proofKey: proofKey)
        let refreshToken = randomToken()
        _ = try await store.insertRefreshToken(
            sessionID: session.id, tokenHash: RefreshTokenSecret.hash(refreshToken),
            parentID: nil, expiresAt: Date(millisecondsSince1970: session.absoluteExpiresAt), now: now()
        )
        return try await tokens.tokens(
            for: session, refreshToken: refreshToken, nonce: redeemed.nonce, withIDToken: true
        )
    }

    /// Takes the code once and checks it against the client, redirect URI and PKCE verifier; a
    /// mismatch ends the session the code was for. Returns the live session it opened.
    public func redeemSession(
        code: String, clientID: String, redirectURI: String?, verifier: String?, proofKey: String? = nil
    ) async throws -> (session: Session, code: AuthorizationCode) {
        let now = self.now()
        let redeemed: AuthorizationCode
        switch try await store.redeemAuthorizationCode(hash: RefreshTokenSecret.hash(code), now: now) {
        case .redeemed(let code):
            redeemed = code
        case .replayed(let sessionID):
            // Whoever redeemed it first may be the thief: the session it made ends (RFC 9700 §4.5.3).
            try await store.revokeSession(id: sessionID, reason: "code_replayed", now: now)
            try await audit(.failure, action: .loginCodeReplayed, sessionID: sessionID, now: now, details: [:])
            throw GrantRefusal.invalidGrant("The code is unknown, used or expired.", message: .loginFailed)
        case .unknown:
            throw GrantRefusal.invalidGrant("The code is unknown, used or expired.", message: .loginFailed)
        }
        var problem: String?
        if redeemed.clientId != clientID {
            problem = "The code was issued to another client."
        } else if redirectURI != redeemed.redirectUri {
            problem = "redirect_uri does not match the authorization request."
        } else if let pkce = Self.pkceProblem(challenge: redeemed.challenge, verifier: verifier) {
            problem = pkce
        } else if let bound = redeemed.dpopJkt, bound != proofKey {
            problem = "The code is bound to another DPoP key (dpop_jkt)."
        }
        if let problem {
            try await store.revokeSession(id: redeemed.sessionId, reason: "code_redemption_failed", now: now)
            try await audit(.failure, action: .loginCodeRedemption, sessionID: redeemed.sessionId, now: now, details: ["reason": problem])
            throw GrantRefusal.invalidGrant(problem, message: .loginFailed)
        }
        guard var session = try await store.session(id: redeemed.sessionId) else { throw GrantRefusal.sessionEnded }
        guard session.isActive(at: now) else { throw try await refusal(ended: session) }
        if let proofKey {
            guard let bound = try await store.bindSession(id: session.id, dpopJKT: proofKey) else { throw GrantRefusal.sessionEnded }
            session = bound
        }
        return (session, redeemed)
    }

    /// PKCE at the token endpoint (RFC 7636 §4.6, RFC 9700 §2.1.1): a code issued with a challenge
    /// needs its verifier, and a code issued without one takes none, so neither a stripped nor an
    /// injected verifier passes.
    static func pkceProblem(challenge: String?, verifier: String?) -> String? {
        switch (challenge, verifier) {
        case (let challenge?, let verifier?): PKCE.verify(verifier: verifier, challenge: challenge) ? nil : "code_verifier does not match the code_challenge."
        case (.some, nil): "code_verifier is required."
        case (nil, .some): "code_verifier was sent, but the authorization request had no code_challenge."
        case (nil, nil): nil
        }
    }

    /// `refresh_token` (RFC 6749 §6) with rotation: a repeat gets the same successor while that
    /// successor is unused; once it has been used, the old token revokes the session.
    /// A session bound to a DPoP key rotates only for a proof by that key (`proof`, recorded in
    /// the rotation's transaction); any other key, or none, changes nothing, so a stolen token
    /// cannot end the session either.
    public func refresh(token: String, clientID: String, proof: ProofOfPossession?) async throws -> TokenResponse {
        let now = self.now()
        let proofKey = proof?.key
        let successor = refreshSecret.successor(of: token)
        let rotation = try await store.rotateRefreshToken(
            hash: RefreshTokenSecret.hash(token), successorHash: RefreshTokenSecret.hash(successor), clientID: clientID,
            dpopJKT: proofKey, proof: proof?.record,
            idleLifetime: idleLifetime, now: now
        )
        switch rotation {
        case .rotated(let rotated), .repeated(let rotated):
            if let required = clientOrganisations[clientID], !required.isEmpty,
               !rotated.organisations.contains(where: { required.contains($0.slug) }) {
                try await end(rotated.session, reason: "organisation_left", now: now)
                throw GrantRefusal.sessionEnded
            }
            if case .rotated = rotation { DomainMetrics.refreshRotated() }
            return try await tokens.tokens(
                for: rotated.session, organisations: rotated.organisations, refreshToken: successor, nonce: nil, withIDToken: false
            )
        case .reused(let session):
            DomainMetrics.refreshReuseDetected()
            logger.warning("A rotated refresh token was used again; the session is revoked", metadata: ["user": "\(session.userId)"])
            try await audit(.revoked, action: .sessionRefreshTokenReused, sessionID: session.id, userID: session.userId, now: now)
            throw GrantRefusal.sessionEnded
        case .wrongKey(let session):
            logger.warning("A bound refresh token came without its DPoP key; nothing changed", metadata: ["user": "\(session.userId)"])
            try await audit(.failure, action: .sessionRefreshWrongKey, sessionID: session.id, userID: session.userId, now: now)
            guard proofKey != nil else {
                throw GrantRefusal.proofInvalid("This refresh token is bound to a DPoP key: send a proof signed by it.")
            }
            throw GrantRefusal.invalidGrant("This refresh token is bound to another DPoP key.")
        case .replayedProof:
            throw GrantRefusal.proofReplayed
        case .expired(let session):
            throw try await refusal(ended: session)
        case .unknown:
            throw GrantRefusal.sessionEnded
        }
    }

    /// Why an ended session's token is refused: the app's "log in again", or, for a session a
    /// disabling ended while the account is disabled still, the words every way in uses then.
    public func refusal(ended session: Session) async throws -> GrantRefusal {
        guard session.revokedReason == AccountAccess.disabledReason, try await store.user(id: session.userId)?.disabledAt != nil else {
            return .sessionEnded
        }
        return .accountDisabled
    }

    /// Ends the session a refresh token or access token belongs to (RFC 7009: unknown tokens are
    /// not an error).
    /// A bound session's current token (its refresh token not yet rotated, or an access token not
    /// yet expired) is revoked without a proof too, as RFC 7009 clients do (issue 46): revoking
    /// only takes access away. An older token of it, which a backup or a log may hold, needs a
    /// proof by the session's key; a proof that is sent must always be by that key.
    public func revoke(token: String, clientID: String, proofKey: String?, reason: String) async throws {
        let now = self.now()
        var session: Session?
        var isCurrent = false
        if let found = try await store.session(refreshTokenHash: RefreshTokenSecret.hash(token), now: now) {
            (session, isCurrent) = found
        } else if let claims = await accessClaims(of: token) {
            session = try await store.session(id: claims.sid)
            isCurrent = Double(claims.exp) > now.timeIntervalSince1970
        }
        guard let session, session.clientId == clientID, session.revokedAt == nil else { return }
        if let bound = session.dpopJkt {
            if let proofKey, bound != proofKey {
                throw GrantRefusal.proofInvalid("This token is bound to another DPoP key: send no proof, or one signed by that key.")
            }
            if proofKey == nil, !isCurrent {
                throw GrantRefusal.proofInvalid("This token is no longer the session's own: revoke it with a proof signed by the session's DPoP key.")
            }
        }
        try await end(session, reason: reason, now: now)
    }

    /// The claims of an access token we issued, expired or not; nil when it is not ours or the
    /// keys cannot be read (RFC 7009: the client is told nothing then; the operator is).
    private func accessClaims(of token: String) async -> AccessTokenClaims? {
        do {
            return try await verifier.accessClaims(of: token, allowExpired: true)
        } catch {
            logger.error("Access tokens cannot be checked: the signing keys could not be read", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// The session an ID token we issued names (expired or not), with its claims; nil when the
    /// token is not ours. The session is nil when it is gone.
    public func named(byIDToken token: String) async throws -> (claims: IDTokenClaims, session: Session?)? {
        guard let claims = try await verifier.idClaims(of: token) else { return nil }
        return (claims, try await store.session(id: claims.sid))
    }

    /// A built-in client relaxed by `PORTVAKT_LEGACY_CLIENTS` went without PAR or DPoP (`skipped`).
    public func auditLegacyUse(_ clientID: String, skipped: String) async throws {
        logger.notice("A legacy client went without \(skipped)", metadata: ["client": "\(clientID)"])
        try await store.append(AuditEvent(
            occurredAt: now(), action: .legacyClient, outcome: Outcome.success.rawValue, actorUserID: nil,
            subjectType: "client", subjectID: clientID, details: ["skipped": skipped]
        ))
    }

    /// A browser's sign-in at Portvakt ends, and every client session it signed in (each client
    /// that asked is told over the back channel), with the audit event.
    public func endBrowserSignIn(id: String, userID: String, reason: String) async throws {
        let now = self.now()
        let ended = try await store.endBrowserSession(id: id, reason: reason, now: now)
        try await store.append(AuditEvent(
            occurredAt: now, action: .browserSignedOut, outcome: Outcome.success.rawValue, actorUserID: UUID(uuidString: userID),
            subjectType: "browser_session", subjectID: id, details: ["reason": reason, "sessions_ended": String(ended)]
        ))
    }

    /// The live browser sign-in of a cookie's hash, without moving its idle time on.
    public func browserSession(idHash: Data) async throws -> BrowserSession? {
        try await store.browserSession(idHash: idHash, now: now())
    }

    public func end(_ session: Session, reason: String, now: Date) async throws {
        try await store.revokeSession(id: session.id, reason: reason, now: now)
        try await audit(.success, action: .sessionEnded, sessionID: session.id, userID: session.userId, now: now, details: ["reason": reason])
    }

    enum Outcome: String {
        case success, failure, revoked
    }

    func audit(_ outcome: Outcome, action: AuditAction, sessionID: String, userID: String? = nil, now: Date, details: [String: String] = [:]) async throws {
        try await store.append(AuditEvent(
            occurredAt: now, action: action, outcome: outcome.rawValue, actorUserID: userID.flatMap(UUID.init(uuidString:)),
            subjectType: "session", subjectID: sessionID, details: details
        ))
    }
}
