import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import SQLKit

/// One presentation of a refresh token (the parameters of ``PortvaktStore/rotateRefreshToken(hash:successorHash:clientID:dpopJKT:proof:idleLifetime:now:)``).
struct RotationRequest: Sendable {
    let hash: Data
    let successorHash: Data
    let clientID: String
    let dpopJKT: String?
    let proof: DPoPProofRecord?
    let idleLifetime: TimeInterval
    let now: Date

    /// The session's idle expiry after this use: now + the idle lifetime, never past the absolute one.
    func idleExpiry(of session: Session) -> Int64 {
        min(now.addingTimeInterval(idleLifetime).millisecondsSince1970, session.absoluteExpiresAt)
    }
}

extension PortvaktStore {
    /// Rotates a refresh token in one transaction and one trip to the database: on SQLite one
    /// synchronous run on the direct connection (`PortvaktStore+DirectRotation.swift`), on
    /// PostgreSQL one call of the function `RotationFunction` defines.
    ///
    /// A lost answer must not log the user out: until the successor is used, presenting its
    /// predecessor again yields that same successor, for as long as the session lives. Only once
    /// the chain has moved on (the successor was used) is the predecessor a stolen copy.
    ///
    /// - Parameters:
    ///   - hash: the presented token's hash.
    ///   - successorHash: the hash of the successor the caller derived from the presented token;
    ///     deterministic, so a repeat yields the same successor.
    ///   - dpopJKT: the thumbprint of the key the request's DPoP proof was signed with.
    ///   - proof: the proof's replay record, made in the same transaction (one commit per refresh).
    ///   - idleLifetime: the session's idle expiry moves to now + this (never past the absolute one).
    public func rotateRefreshToken(
        hash: Data, successorHash: Data, clientID: String, dpopJKT: String? = nil, proof: DPoPProofRecord? = nil,
        idleLifetime: TimeInterval, now: Date = Date()
    ) async throws -> RefreshRotation {
        let request = RotationRequest(
            hash: hash, successorHash: successorHash, clientID: clientID, dpopJKT: dpopJKT, proof: proof, idleLifetime: idleLifetime, now: now
        )
        if let sqlite = driver as? SQLiteDriver {
            return try await writeDirectly(on: sqlite) { try Self.rotateRefreshToken(request, on: $0) }
        }
        // One statement outside an explicit transaction: PostgreSQL runs it as a transaction of its own.
        return try await read { db in try await Self.rotateRefreshToken(request, callingFunctionIn: db) }
    }

    /// PostgreSQL: one call of `portvakt_rotate_refresh_token` (migration 14), its own transaction.
    private static func rotateRefreshToken(_ request: RotationRequest, callingFunctionIn db: any SQLDatabase) async throws -> RefreshRotation {
        let rows = try await db.raw("""
            SELECT r.outcome, (r.session).*, r.organisation_id, r.slug, r.role FROM portvakt_rotate_refresh_token(\
            \(bind: request.hash), \(bind: request.successorHash), \(bind: newID()), \(bind: request.clientID), \(bind: request.dpopJKT), \
            \(bind: request.proof?.jtiHash), \(bind: request.proof?.expiresAt.millisecondsSince1970), \
            \(bind: request.now.millisecondsSince1970), \(bind: Int64(request.idleLifetime * 1000))) AS r
            """).all()
        guard let first = rows.first else { return .unknown }
        let session = { try first.decode(model: Session.self, keyDecodingStrategy: SnakeCaseColumns.decoding) }
        let rotated = { RotatedSession(session: try session(), organisations: try OrganisationRoles.grouping(functionRows: rows)) }
        let outcome = try first.decode(column: "outcome", as: String.self)
        if outcome == "replayed_proof" { return .replayedProof }
        return switch RefreshRotationRule.Step(rawValue: outcome) {
        case .rotate: .rotated(try rotated())
        case .repeatSuccessor: .repeated(try rotated())
        case .revokeForReuse: .reused(try session())
        case .expired: .expired(try session())
        case .wrongKey: .wrongKey(try session())
        case .unknown, nil: .unknown
        }
    }

    static func refreshToken(hash: Data, in db: any SQLDatabase) async throws -> RefreshToken? {
        try await db.select().column("*").from("refresh_tokens").where("token_hash", .equal, hash).first(as: RefreshToken.self)
    }

    static func revokeSession(id: String, reason: String, at time: Int64, in db: any SQLDatabase) async throws {
        try await db.update("sessions")
            .set("revoked_at", to: time).set("revoked_reason", to: reason)
            .where("id", .equal, id).where("revoked_at", .is, SQLLiteral.null)
            .run()
    }

    /// The session a refresh token belongs to, whatever its state, and whether the token is the
    /// session's current one (neither rotated nor expired at `now`).
    public func session(refreshTokenHash hash: Data, now: Date) async throws -> (session: Session, isCurrent: Bool)? {
        try await read { db in
            guard let token = try await Self.refreshToken(hash: hash, in: db),
                  let session = try await db.select().column("*").from("sessions").where("id", .equal, token.sessionId).first(as: Session.self)
            else { return nil }
            return (session, token.rotatedAt == nil && token.expiresAt > now.millisecondsSince1970)
        }
    }
}

extension OrganisationRoles {
    /// The memberships a store function returns beside its outcome, one per row (`organisation_id`,
    /// `slug`, `role`; a row without one when the user has none).
    static func grouping(functionRows rows: [any SQLRow]) throws -> [OrganisationRoles] {
        try grouping(rows.compactMap { row in
            guard let organisation = try row.decode(column: "organisation_id", as: String?.self) else { return nil }
            return (organisation, try row.decode(column: "slug", as: String.self), try row.decode(column: "role", as: Role.self))
        })
    }
}
