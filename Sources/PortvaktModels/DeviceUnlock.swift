import Foundation
import PortvaktCore

/// A biometric unlock whose assertion holds, ready to become a session in one trip.
public struct DeviceUnlockGrant: Sendable {
    /// Hash of the challenge the device signed; taken (deleted) whatever the outcome.
    public let challengeHash: Data
    /// The `action` the assertion's claims name (nil for an unlock); the challenge must carry the same.
    public let claimedAction: String?
    /// The new session, starting now (its `createdAt` is the unlock's time); its `deviceId` is the
    /// device that signed.
    public let session: Session
    public let refreshTokenHash: Data
    /// The device's failure counter, cleared by the unlock.
    public let throttleKey: String
    public let audit: AuditEvent
    /// The request's DPoP proof, recorded first: a replay changes nothing.
    public let proof: DPoPProofRecord?

    public init(
        challengeHash: Data, claimedAction: String?, session: Session, refreshTokenHash: Data, throttleKey: String, audit: AuditEvent,
        proof: DPoPProofRecord? = nil
    ) {
        self.challengeHash = challengeHash
        self.claimedAction = claimedAction
        self.session = session
        self.refreshTokenHash = refreshTokenHash
        self.throttleKey = throttleKey
        self.audit = audit
        self.proof = proof
    }
}

/// What an unlock's trip to the database led to.
public enum DeviceUnlockOutcome: Sendable, Equatable {
    /// The session started; the user's organisations and roles are for its access token.
    case started(RotatedSession)
    /// The challenge was unknown, used, expired or for something else (the reason, as the
    /// assertion verifier names it); it is used up now, and nothing else changed.
    case challengeRefused(reason: String)
    /// The device was revoked or deleted in the meantime.
    case deviceRemoved
    /// The request's DPoP proof was recorded before (a replay): nothing changed, the challenge included.
    case replayedProof
}
