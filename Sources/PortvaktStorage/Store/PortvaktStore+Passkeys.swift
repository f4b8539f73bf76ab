import Foundation
import PortvaktCore
import SQLKit

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

extension PortvaktStore {
    /// Stores `challenge` for its binding, replacing one that binding had (one at a time each).
    public func putWebAuthnChallenge(_ challenge: WebAuthnChallenge) async throws {
        try await write { db in
            try await db.delete(from: "webauthn_challenges").where("binding_hash", .equal, challenge.bindingHash).run()
            try await db.insert(into: "webauthn_challenges").row(challenge).run()
        }
    }

    /// Takes the binding's challenge out, whatever comes of the answer: nil when there is none,
    /// or it expired.
    public func takeWebAuthnChallenge(bindingHash: Data, now: Date) async throws -> WebAuthnChallenge? {
        let taken = try await write { db in
            try await db.delete(from: "webauthn_challenges").where("binding_hash", .equal, bindingHash)
                .returning(SQLLiteral.all).first(as: WebAuthnChallenge.self)
        }
        guard let taken, taken.expiresAt > now.millisecondsSince1970 else { return nil }
        return taken
    }

    @discardableResult
    public func purgeExpiredWebAuthnChallenges(now: Date = Date()) async throws -> Int {
        try await write { db in
            try await db.delete(from: "webauthn_challenges").where("expires_at", .lessThanOrEqual, now.millisecondsSince1970)
                .returning("binding_hash").all().count
        }
    }

    /// Adds a passkey and its audit event in one transaction; false when the credential is
    /// registered already (to anyone).
    public func insertPasskey(_ passkey: Passkey, audit: AuditEvent) async throws -> Bool {
        try await write { db in
            let taken = try await db.select().column("id").from("passkeys").where("credential_id", .equal, passkey.credentialId).first()
            guard taken == nil else { return false }
            try await db.insert(into: "passkeys").row(passkey).run()
            try await self.append(audit, in: db)
            return true
        }
    }

    public func passkeys(userID: String) async throws -> [Passkey] {
        try await read { db in
            try await db.select().column("*").from("passkeys").where("user_id", .equal, userID).orderBy("created_at").all(as: Passkey.self)
        }
    }

    public func passkey(credentialID: Data) async throws -> Passkey? {
        try await read { db in
            try await db.select().column("*").from("passkeys").where("credential_id", .equal, credentialID).first(as: Passkey.self)
        }
    }

    /// Moves the counter on after an accepted assertion, only if no other answer moved it past
    /// `previous` meanwhile (two instances, one cloned credential): false when one did.
    public func recordPasskeyUse(id: String, previous: Int64, signCount: Int64, backedUp: Bool, now: Date) async throws -> Bool {
        try await write { db in
            try await db.raw("""
                UPDATE passkeys SET sign_count = \(bind: signCount), backed_up = \(bind: backedUp ? 1 : 0), last_used_at = \(bind: now.millisecondsSince1970) \
                WHERE id = \(bind: id) AND sign_count = \(bind: previous) RETURNING id
                """).first() != nil
        }
    }

    /// Removes the user's passkey with its audit event; false when the user has none with that ID.
    public func deletePasskey(id: String, userID: String, audit: AuditEvent) async throws -> Passkey? {
        try await write { db in
            guard let removed = try await db.delete(from: "passkeys").where("id", .equal, id).where("user_id", .equal, userID)
                .returning(SQLLiteral.all).first(as: Passkey.self)
            else { return nil }
            try await self.append(audit, in: db)
            return removed
        }
    }
}
