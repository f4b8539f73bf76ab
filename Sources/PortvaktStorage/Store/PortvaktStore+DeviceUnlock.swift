import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// Records the DPoP proof, takes the challenge and, when the domain's `DeviceChallengeRule` lets
    /// it start the unlock, clears the device's failure counter, ends the session the device had with this
    /// client, and starts the new one with its refresh token and audit event: one transaction and
    /// one trip to the database (on SQLite one synchronous run on the direct connection, on
    /// PostgreSQL one call of the function `DeviceUnlockFunction` defines).
    ///
    /// The device row is updated (and so locked) before the sessions: a concurrent revocation
    /// either committed before (``DeviceUnlockOutcome/deviceRemoved``) or waits and then ends this
    /// session too.
    public func unlockDevice(_ grant: DeviceUnlockGrant) async throws -> DeviceUnlockOutcome {
        let row = try AuditRow(sealing: grant.audit, with: auditKeys)
        let outcome = if let sqlite = driver as? SQLiteDriver {
            try await writeDirectly(on: sqlite) { try Self.unlockDevice(grant, audit: row, on: $0) }
        } else {
            // One statement outside an explicit transaction: PostgreSQL runs it as a transaction of its own.
            try await read { db in try await Self.unlockDevice(grant, audit: row, callingFunctionIn: db) }
        }
        if case .started = outcome {
            Self.countAppended(grant.audit)
            linkAuditEventsSoon()
        }
        return outcome
    }

    private static func unlockDevice(
        _ grant: DeviceUnlockGrant, audit: AuditRow, on db: SQLiteDirectConnection
    ) throws -> DeviceUnlockOutcome {
        let session = grant.session
        let time = session.createdAt
        if let proof = grant.proof, try !recordDPoPProof(proof, on: db) { return .replayedProof }
        let taken = try db.run(
            "DELETE FROM device_challenges WHERE challenge_hash = ?1 RETURNING device_id, purpose, action, expires_at", .blob(grant.challengeHash)
        ).first
        let challenge = taken.map { DeviceChallengeRule.TakenChallenge(deviceID: $0[0].text, purpose: $0[1].text, action: $0[2].text, expiresAt: $0[3].integer) }
        if let reason = DeviceChallengeRule.refusal(ofUnlock: challenge, for: grant) { return .challengeRefused(reason: reason) }
        guard let deviceID = session.deviceId,
              try !db.run("UPDATE devices SET last_used_at = ?1 WHERE id = ?2 AND revoked_at IS NULL RETURNING id", .integer(time), .text(deviceID)).isEmpty
        else { return .deviceRemoved }
        try db.run("DELETE FROM login_throttles WHERE key = ?1", .text(grant.throttleKey))
        try db.run(
            "UPDATE sessions SET revoked_at = ?1, revoked_reason = 'replaced_by_unlock' WHERE device_id = ?2 AND client_id = ?3 AND revoked_at IS NULL",
            .integer(time), .text(deviceID), .text(session.clientId)
        )
        try db.run(
            """
            INSERT INTO sessions (id, user_id, client_id, device_id, amr, acr, auth_time, created_at, idle_expires_at, absolute_expires_at, dpop_jkt) \
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
            """,
            .text(session.id), .text(session.userId), .text(session.clientId), .text(deviceID), .text(session.amr), .text(session.acr),
            .integer(session.authTime), .integer(time), .integer(session.idleExpiresAt), .integer(session.absoluteExpiresAt),
            .optionalText(session.dpopJkt)
        )
        try db.run(
            "INSERT INTO refresh_tokens (id, session_id, token_hash, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            .text(newID()), .text(session.id), .blob(grant.refreshTokenHash), .integer(time), .integer(session.absoluteExpiresAt)
        )
        try db.run(
            """
            INSERT INTO audit_events (id, occurred_at, action, outcome, actor_user_id, organisation_id, subject_type, subject_id, source, details, key_id, seal) \
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
            """,
            .text(audit.id), .integer(audit.occurredAt), .text(audit.action), .text(audit.outcome), .optionalText(audit.actorUserId),
            .optionalText(audit.organisationId), .optionalText(audit.subjectType), .optionalText(audit.subjectId), .optionalText(audit.source),
            .text(audit.details), .optionalText(audit.keyId), audit.seal.map(SQLiteValue.blob) ?? .null
        )
        return .started(RotatedSession(session: session, organisations: try organisationRoles(userID: session.userId, on: db)))
    }

    /// PostgreSQL: one call of `portvakt_unlock_device` (migration 16), its own transaction.
    private static func unlockDevice(
        _ grant: DeviceUnlockGrant, audit: AuditRow, callingFunctionIn db: any SQLDatabase
    ) async throws -> DeviceUnlockOutcome {
        let session = grant.session
        let rows = try await db.raw("""
            SELECT outcome, organisation_id, slug, role FROM portvakt_unlock_device(\
            \(bind: grant.proof?.jtiHash), \(bind: grant.proof?.expiresAt.millisecondsSince1970), \
            \(bind: grant.challengeHash), \(bind: grant.claimedAction), \(bind: grant.throttleKey), \(bind: session.createdAt), \
            \(bind: session.id), \(bind: session.userId), \(bind: session.clientId), \(bind: session.deviceId), \(bind: session.amr), \
            \(bind: session.acr), \(bind: session.idleExpiresAt), \(bind: session.absoluteExpiresAt), \(bind: session.dpopJkt), \
            \(bind: newID()), \(bind: grant.refreshTokenHash), \
            \(bind: audit.id), \(bind: audit.occurredAt), \(bind: audit.action), \(bind: audit.outcome), \(bind: audit.actorUserId), \(bind: audit.organisationId), \
            \(bind: audit.subjectType), \(bind: audit.subjectId), \(bind: audit.source), \(bind: audit.details), \(bind: audit.keyId), \
            \(bind: audit.seal))
            """).all()
        guard let first = rows.first else { throw StoreError.constraint("portvakt_unlock_device returned no row") }
        switch try first.decode(column: "outcome", as: String.self) {
        case "started":
            return .started(RotatedSession(session: session, organisations: try OrganisationRoles.grouping(functionRows: rows)))
        case "device_removed":
            return .deviceRemoved
        case "replayed_proof":
            return .replayedProof
        case let reason:
            return .challengeRefused(reason: reason)
        }
    }
}

private extension SQLiteValue {
    static func optionalText(_ text: String?) -> SQLiteValue { text.map(SQLiteValue.text) ?? .null }
}
