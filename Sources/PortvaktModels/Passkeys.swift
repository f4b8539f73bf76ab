import Foundation
import PortvaktCore

/// A passkey of a user: the WebAuthn credential and what the portal shows of it.
public struct Passkey: Sendable, Hashable, Codable {
    public let id: String
    public let userId: String
    public let credentialId: Data
    /// The user handle the credential was made with (the account's ID then; a merge keeps it).
    public let userHandle: Data
    /// The COSE public key as the authenticator encoded it.
    public let publicKey: Data
    public let algorithm: Int
    public let signCount: Int64
    /// The authenticator's backup flags (1 or 0): eligible never changes; backed up may.
    public let backupEligible: Int
    public let backedUp: Int
    public let aaguid: Data
    public let name: String
    public let createdAt: Int64
    public let lastUsedAt: Int64?

    public init(
        id: String, userId: String, credentialId: Data, userHandle: Data, publicKey: Data, algorithm: Int, signCount: Int64,
        backupEligible: Bool, backedUp: Bool, aaguid: Data, name: String, createdAt: Int64, lastUsedAt: Int64? = nil
    ) {
        self.id = id
        self.userId = userId
        self.credentialId = credentialId
        self.userHandle = userHandle
        self.publicKey = publicKey
        self.algorithm = algorithm
        self.signCount = signCount
        self.backupEligible = backupEligible ? 1 : 0
        self.backedUp = backedUp ? 1 : 0
        self.aaguid = aaguid
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

extension Passkey {
    public var isBackupEligible: Bool { backupEligible != 0 }
    public var isBackedUp: Bool { backedUp != 0 }
}

/// What became of an accepted assertion's use.
public enum PasskeyUse: Sendable {
    case recorded
    /// Another answer moved the counter to this value or past it: a copy, or a race lost.
    case counterBehind
    /// The passkey was removed meanwhile.
    case gone
}

/// A WebAuthn challenge waiting for its ceremony's answer.
public struct WebAuthnChallenge: Sendable, Hashable, Codable {
    public let bindingHash: Data
    /// `register`, `sign_in` or `step_up`.
    public let purpose: String
    /// The signed-in user a registration or step-up is for; nil for a sign-in.
    public let userId: String?
    public let challenge: Data
    public let createdAt: Int64
    public let expiresAt: Int64

    public init(bindingHash: Data, purpose: String, userId: String?, challenge: Data, createdAt: Int64, expiresAt: Int64) {
        self.bindingHash = bindingHash
        self.purpose = purpose
        self.userId = userId
        self.challenge = challenge
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// A removed passkey and the sessions its sign-ins had opened, ended with it.
public struct PasskeyRemoval: Sendable, Equatable {
    public let passkey: Passkey
    /// The sessions that were still active, revoked now (`passkey_removed`).
    public let endedSessionIDs: [String]

    package init(passkey: Passkey, endedSessionIDs: [String]) {
        self.passkey = passkey
        self.endedSessionIDs = endedSessionIDs
    }
}
