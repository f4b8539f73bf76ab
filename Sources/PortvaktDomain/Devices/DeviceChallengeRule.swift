import Foundation
import PortvaktModels
import PortvaktProtocol

/// The rule for a challenge a device signed, described once: whether it lets the device do what
/// it asks, once the challenge was taken (deleted, whatever follows, so it answers one assertion
/// at most).
///
/// A step-up's assertion asks ``refusal(of:signedBy:purpose:claimedPurpose:action:at:)`` in the
/// `DeviceAssertionVerifier`. An unlock takes its challenge in the transaction that starts its
/// session, so storage runs the rule: SQLite asks ``refusal(ofUnlock:for:)`` inside its transaction
/// (`PortvaktStore+DeviceUnlock.swift`); PostgreSQL's function `portvakt_unlock_device`
/// (`DeviceUnlockFunction.swift`) takes the same steps in the same order in PL/pgSQL and answers
/// with the same reasons. After the challenge, an unlock's device must still be active (its row is
/// updated first, so a concurrent revocation either came before or waits). `UnlockRuleTests`
/// holds both databases to this rule, case by case.
public enum DeviceChallengeRule {
    /// The challenge as it was taken from the database.
    public struct TakenChallenge: Sendable {
        public let deviceID: String?
        public let purpose: String?
        public let action: String?
        public let expiresAt: Int64?

        public init(deviceID: String?, purpose: String?, action: String?, expiresAt: Int64?) {
            self.deviceID = deviceID
            self.purpose = purpose
            self.action = action
            self.expiresAt = expiresAt
        }

        public init(_ challenge: DeviceChallenge) {
            self.init(deviceID: challenge.deviceId, purpose: challenge.purpose, action: challenge.action, expiresAt: challenge.expiresAt)
        }
    }

    /// Why the challenge does not let `deviceID` do `purpose` (with `action`) at `time`, or nil
    /// when it does; `claimedPurpose` is what the device's signed claims say.
    public static func refusal(
        of challenge: TakenChallenge?, signedBy deviceID: String?, purpose: DevicePurpose, claimedPurpose: DevicePurpose, action: String?, at time: Int64
    ) -> String? {
        guard let challenge, let expiresAt = challenge.expiresAt, expiresAt > time else { return "challenge_unknown_used_or_expired" }
        if challenge.deviceID != deviceID { return "challenge_for_another_device" }
        if challenge.purpose != purpose.rawValue || claimedPurpose != purpose { return "wrong_purpose" }
        if challenge.action != action { return "wrong_action" }
        return nil
    }

    /// An unlock's challenge, for the session the grant starts (the claims' purpose was checked
    /// before the grant was made).
    public static func refusal(ofUnlock challenge: TakenChallenge?, for grant: DeviceUnlockGrant) -> String? {
        refusal(
            of: challenge, signedBy: grant.session.deviceId, purpose: .unlock, claimedPurpose: .unlock, action: grant.claimedAction,
            at: grant.session.createdAt
        )
    }
}
