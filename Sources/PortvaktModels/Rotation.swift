import Foundation
import PortvaktCore

/// What presenting a refresh token led to.
public enum RefreshRotation: Sendable, Equatable {
    /// The token was current: it is now rotated, and the successor the caller derived is stored.
    case rotated(RotatedSession)
    /// The token was rotated before into the successor the caller derived, and that successor is
    /// still unused (the answer was lost, or two requests raced): the caller hands it out again.
    case repeated(RotatedSession)
    /// The token's successor has been used already, so the chain has moved on: someone holds a
    /// copy of an old token. The whole session is now revoked.
    case reused(Session)
    /// The session ended (idle, absolute lifetime, logout or earlier revocation).
    case expired(Session)
    /// The session is bound to a DPoP key (RFC 9449) and the request proved another key or none:
    /// nothing changed.
    case wrongKey(Session)
    /// The request's DPoP proof was recorded before (a replay): nothing changed.
    case replayedProof
    /// No such token, or it belongs to another client.
    case unknown
}

/// The session of a rotated refresh token or a new unlock, with the user's organisations and
/// roles for its new access token, read in the same transaction.
public struct RotatedSession: Sendable, Equatable {
    public let session: Session
    public let organisations: [OrganisationRoles]

    package init(session: Session, organisations: [OrganisationRoles]) {
        self.session = session
        self.organisations = organisations
    }
}
