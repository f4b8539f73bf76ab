import Foundation
import PortvaktModels

/// The refresh rotation's rule, described once: what presenting a refresh token decides, after
/// the request's DPoP proof was recorded as new (a replayed proof changes nothing at all).
///
/// Both stores run it in one transaction: SQLite asks ``decide(token:session:successor:clientID:dpopJKT:now:)``
/// inside its transaction (`PortvaktStore+DirectRotation.swift`); PostgreSQL's function
/// `portvakt_rotate_refresh_token` (`RotationFunction.swift`) takes the same steps in the same
/// order in PL/pgSQL, under a lock on the session's row, and answers with a ``Step``'s raw value.
/// `RotationRuleTests` holds both databases to this rule, case by case.
public enum RefreshRotationRule {
    public enum Step: String, Sendable, CaseIterable {
        /// No such token, or another client's.
        case unknown
        /// The session is bound to a DPoP key (RFC 9449) and the request proved another or none.
        /// Nothing changes, so whoever lifted the token cannot log the user out either.
        case wrongKey = "wrong_key"
        /// The session ended (idle, absolute lifetime, logout, revocation) or the token expired.
        case expired
        /// The token is current: it rotates into the successor the caller derived.
        case rotate = "rotated"
        /// The token rotated before into that same successor, still unused (a lost answer, or
        /// two requests racing): the successor is handed out again, however late.
        case repeatSuccessor = "repeated"
        /// The chain has moved on, so this is a copy of an old token: the session is revoked.
        case revokeForReuse = "reused"
    }

    /// - Parameter successor: the token with the successor hash the caller derived; only read
    ///   (and only needed) when `token` rotated before.
    public static func decide(
        token: RefreshToken?, session: Session?, successor: RefreshToken?, clientID: String, dpopJKT: String?, now: Date
    ) -> Step {
        guard let token, let session, session.clientId == clientID else { return .unknown }
        if let bound = session.dpopJkt, bound != dpopJKT { return .wrongKey }
        guard session.isActive(at: now), token.expiresAt > now.millisecondsSince1970 else { return .expired }
        guard token.rotatedAt != nil else { return .rotate }
        if let successor, successor.id == token.successorId, successor.rotatedAt == nil { return .repeatSuccessor }
        return .revokeForReuse
    }
}
