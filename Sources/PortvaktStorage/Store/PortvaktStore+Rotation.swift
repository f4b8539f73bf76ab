import Foundation
import SQLKit

/// What presenting a refresh token led to.
public enum RefreshRotation: Sendable, Equatable {
    /// The token was current: it is now rotated, and the successor the caller derived is stored.
    case rotated(Session)
    /// The token was rotated before into the successor the caller derived, and that successor is
    /// still unused (the answer was lost, or two requests raced): the caller hands it out again.
    case repeated(Session)
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

extension PortvaktStore {
    /// Rotates a refresh token in one transaction.
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
        let time = now.millisecondsSince1970
        return try await write { db in
            if let proof, try await !Self.recordDPoPProof(proof, in: db) { return .replayedProof }
            guard let token = try await Self.refreshToken(hash: hash, in: db),
                  let session = try await db.select().column("*").from("sessions").where("id", .equal, token.sessionId).first(as: Session.self),
                  session.clientId == clientID
            else { return .unknown }
            // Before anything changes: a token presented without its key neither rotates nor
            // revokes, so whoever lifted it cannot log the user out either.
            if let bound = session.dpopJkt, bound != dpopJKT { return .wrongKey(session) }
            guard session.isActive(at: now), token.expiresAt > time else { return .expired(session) }
            // First, and guarded: this locks the session row, so a concurrent logout either
            // committed before (nothing updated: expired) or waits until these tokens exist and
            // then ends them with the session.
            let idleExpiry = min(now.addingTimeInterval(idleLifetime).millisecondsSince1970, session.absoluteExpiresAt)
            guard try await db.update("sessions").set("idle_expires_at", to: idleExpiry)
                .where("id", .equal, session.id).where("revoked_at", .is, SQLLiteral.null)
                .returning("id").first() != nil
            else { return .expired(session) }

            if token.rotatedAt == nil {
                let successorID = newID()
                // The condition makes the loser of a concurrent rotation (PostgreSQL, READ COMMITTED) update nothing.
                let won = try await db.update("refresh_tokens")
                    .set("rotated_at", to: time).set("successor_id", to: successorID)
                    .where("id", .equal, token.id).where("rotated_at", .is, SQLLiteral.null)
                    .returning("id").first() != nil
                if won {
                    let successor = RefreshToken(
                        id: successorID, sessionId: session.id, tokenHash: successorHash, parentId: token.id,
                        createdAt: time, expiresAt: session.absoluteExpiresAt, rotatedAt: nil, successorId: nil
                    )
                    try await db.insert(into: "refresh_tokens").row(successor).run()
                    return .rotated(session)
                }
            }

            // Rotated already (or just now by a concurrent request): the same successor while it is unused, else reuse.
            guard let rotated = try await Self.refreshToken(hash: hash, in: db), rotated.rotatedAt != nil else {
                return .unknown
            }
            let successor = try await Self.refreshToken(hash: successorHash, in: db)
            if let successor, successor.id == rotated.successorId, successor.rotatedAt == nil {
                return .repeated(session)
            }
            try await Self.revokeSession(id: session.id, reason: "refresh_token_reuse", at: time, in: db)
            return .reused(session)
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

    /// The session a refresh token belongs to, whatever its state.
    public func session(refreshTokenHash hash: Data) async throws -> Session? {
        try await read { db in
            guard let token = try await Self.refreshToken(hash: hash, in: db) else { return nil }
            return try await db.select().column("*").from("sessions").where("id", .equal, token.sessionId).first(as: Session.self)
        }
    }
}
