import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels

/// The refresh rotation on SQLite, as one synchronous transaction on ``SQLiteDirectConnection``:
/// the domain's `RefreshRotationRule` decides on the rows it reads, and this writes what the rule
/// decided. SQLite has one writer at a time, so no step needs a guard against a concurrent rotation.
extension PortvaktStore {
    static func rotateRefreshToken(_ request: RotationRequest, on db: SQLiteDirectConnection) throws -> RefreshRotation {
        let time = request.now.millisecondsSince1970
        if let proof = request.proof, try !recordDPoPProof(proof, on: db) { return .replayedProof }
        let token = try Self.refreshToken(hash: request.hash, on: db)
        let session = try token.flatMap { try Self.session(id: $0.sessionId, on: db) }
        let successor = token?.rotatedAt == nil ? nil : try Self.refreshToken(hash: request.successorHash, on: db)
        let step = RefreshRotationRule.decide(
            token: token, session: session, successor: successor, clientID: request.clientID, dpopJKT: request.dpopJKT, now: request.now
        )
        guard step != .unknown, let token, let session else { return .unknown }
        switch step {
        case .wrongKey: return .wrongKey(session)
        case .expired: return .expired(session)
        case .unknown, .rotate, .repeatSuccessor, .revokeForReuse: break
        }
        try db.run("UPDATE sessions SET idle_expires_at = ?1 WHERE id = ?2", .integer(request.idleExpiry(of: session)), .text(session.id))
        switch step {
        case .rotate:
            let successorID = newID()
            try db.run("UPDATE refresh_tokens SET rotated_at = ?1, successor_id = ?2 WHERE id = ?3", .integer(time), .text(successorID), .text(token.id))
            try db.run(
                "INSERT INTO refresh_tokens (id, session_id, token_hash, parent_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                .text(successorID), .text(session.id), .blob(request.successorHash), .text(token.id), .integer(time), .integer(session.absoluteExpiresAt)
            )
            return .rotated(RotatedSession(session: session, organisations: try organisationRoles(userID: session.userId, on: db)))
        case .repeatSuccessor:
            return .repeated(RotatedSession(session: session, organisations: try organisationRoles(userID: session.userId, on: db)))
        default:
            try db.run(
                "UPDATE sessions SET revoked_at = ?1, revoked_reason = 'refresh_token_reuse' WHERE id = ?2 AND revoked_at IS NULL",
                .integer(time), .text(session.id)
            )
            return .reused(session)
        }
    }

    /// Records a DPoP proof's `jti` in the caller's transaction; false when it was recorded before (a replay).
    static func recordDPoPProof(_ proof: DPoPProofRecord, on db: SQLiteDirectConnection) throws -> Bool {
        try db.run(
            "INSERT INTO dpop_proofs (jti_hash, expires_at) VALUES (?1, ?2) ON CONFLICT (jti_hash) DO NOTHING",
            .blob(proof.jtiHash), .integer(proof.expiresAt.millisecondsSince1970)
        )
        return db.changes == 1
    }

    private static func refreshToken(hash: Data, on db: SQLiteDirectConnection) throws -> RefreshToken? {
        let rows = try db.run(
            "SELECT id, session_id, token_hash, parent_id, created_at, expires_at, rotated_at, successor_id FROM refresh_tokens WHERE token_hash = ?1",
            .blob(hash)
        )
        return try rows.first.map { row in
            var columns = SQLiteColumns(row)
            return RefreshToken(
                id: try columns.text(), sessionId: try columns.text(), tokenHash: try columns.blob(), parentId: columns.optionalText(),
                createdAt: try columns.integer(), expiresAt: try columns.integer(), rotatedAt: columns.optionalInteger(), successorId: columns.optionalText()
            )
        }
    }

    private static func session(id: String, on db: SQLiteDirectConnection) throws -> Session? {
        let rows = try db.run(
            """
            SELECT id, user_id, client_id, device_id, passkey_id, amr, acr, auth_time, created_at, idle_expires_at, absolute_expires_at, \
            revoked_at, revoked_reason, dpop_jkt, scope FROM sessions WHERE id = ?1
            """,
            .text(id)
        )
        return try rows.first.map { row in
            var columns = SQLiteColumns(row)
            return Session(
                id: try columns.text(), userId: try columns.text(), clientId: try columns.text(), deviceId: columns.optionalText(),
                passkeyId: columns.optionalText(), amr: try columns.text(), acr: try columns.text(), authTime: try columns.integer(), createdAt: try columns.integer(),
                idleExpiresAt: try columns.integer(), absoluteExpiresAt: try columns.integer(), revokedAt: columns.optionalInteger(),
                revokedReason: columns.optionalText(), dpopJkt: columns.optionalText(), scope: columns.optionalText()
            )
        }
    }

    static func organisationRoles(userID: String, on db: SQLiteDirectConnection) throws -> [OrganisationRoles] {
        let rows = try db.run(
            """
            SELECT memberships.organisation_id, organisations.slug, memberships.role FROM memberships \
            JOIN organisations ON organisations.id = memberships.organisation_id \
            WHERE memberships.user_id = ?1 ORDER BY organisations.slug, memberships.role
            """,
            .text(userID)
        )
        return try OrganisationRoles.grouping(rows.map { row in
            var columns = SQLiteColumns(row)
            let (organisation, slug, role) = (try columns.text(), try columns.text(), try columns.text())
            guard let role = Role(rawValue: role) else { throw StoreError.constraint("memberships.role") }
            return (organisation, slug, role)
        })
    }
}

/// Reads a row's columns in order, each as the type the schema gives it.
private struct SQLiteColumns {
    private var values: ArraySlice<SQLiteValue>

    init(_ row: [SQLiteValue]) { values = row[...] }

    mutating func text() throws -> String { try required(next()?.text) }
    mutating func integer() throws -> Int64 { try required(next()?.integer) }
    mutating func blob() throws -> Data { try required(next()?.blob) }
    mutating func optionalText() -> String? { next()?.text }
    mutating func optionalInteger() -> Int64? { next()?.integer }

    private mutating func next() -> SQLiteValue? { values.popFirst() }

    private func required<T>(_ value: T?) throws -> T {
        guard let value else { throw StoreError.constraint("a column the schema requires is missing or of another type") }
        return value
    }
}
