import Foundation
import PortvaktModels
import PortvaktProtocol

/// The biometric unlock's rule, described once: whether the challenge a device signed lets its
/// unlock start, after the request's DPoP proof was recorded as new and the challenge was taken
/// (deleted, whatever follows, so it answers one assertion at most).
///
/// Both stores run it in one transaction: SQLite asks ``refusal(of:for:)`` inside its transaction
/// (`PortvaktStore+DeviceUnlock.swift`); PostgreSQL's function `portvakt_unlock_device`
/// (`DeviceUnlockFunction.swift`) takes the same steps in the same order in PL/pgSQL and answers
/// with the same reasons. After the challenge, the device must still be active (its row is
/// updated first, so a concurrent revocation either came before or waits). `UnlockRuleTests`
/// holds both databases to this rule, case by case.
public enum DeviceUnlockRule {
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
    }

    /// Why the challenge does not let this unlock start (the reason the assertion verifier names
    /// too), or nil when it does.
    public static func refusal(of challenge: TakenChallenge?, for grant: DeviceUnlockGrant) -> String? {
        guard let challenge, let expiresAt = challenge.expiresAt, expiresAt > grant.session.createdAt else {
            return "challenge_unknown_used_or_expired"
        }
        if challenge.deviceID != grant.session.deviceId { return "challenge_for_another_device" }
        if challenge.purpose != DevicePurpose.unlock.rawValue { return "wrong_purpose" }
        if challenge.action != grant.claimedAction { return "wrong_action" }
        return nil
    }
}
