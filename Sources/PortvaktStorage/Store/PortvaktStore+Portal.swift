import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// Keeps a portal sign-in's sealed payload (PKCE verifier, where to go after) by its state's hash.
    public func insertPortalLogin(stateHash: Data, payload: SealedValue, expiresAt: Date) async throws {
        try await write { db in
            try await db.insert(into: "portal_logins").columns("state_hash", "payload_sealed", "payload_key_id", "expires_at")
                .values(SQLBind(stateHash), SQLBind(payload.combined), SQLBind(payload.keyID), SQLBind(expiresAt.millisecondsSince1970)).run()
        }
    }

    /// Takes a portal sign-in once: nil when unknown, taken or expired.
    public func takePortalLogin(stateHash: Data, now: Date = Date()) async throws -> SealedValue? {
        try await write { db in
            guard let row = try await db.delete(from: "portal_logins").where("state_hash", .equal, stateHash)
                .returning("payload_sealed", "payload_key_id", "expires_at").first()
            else { return nil }
            guard try row.decode(column: "expires_at", as: Int64.self) > now.millisecondsSince1970 else { return nil }
            return SealedValue(keyID: try row.decode(column: "payload_key_id", as: String.self), combined: try row.decode(column: "payload_sealed", as: Data.self))
        }
    }

    public func insertPortalSession(_ session: PortalSession) async throws {
        try await write { db in try await db.insert(into: "portal_sessions").row(session).run() }
    }

    /// The portal session behind a cookie, if it and its Portvakt session are alive; each use
    /// moves both idle expiries on by `idle` (never past the absolute one).
    public func touchPortalSession(idHash: Data, idle: TimeInterval, now: Date = Date()) async throws -> PortalSession? {
        let time = now.millisecondsSince1970
        return try await write { db in
            let nextIdle = SQLFunction(db.dialect.name == "sqlite" ? "MIN" : "LEAST", args: SQLBind(time + Int64(idle * 1000)), SQLColumn("absolute_expires_at"))
            guard let session = try await db.update("portal_sessions").set("idle_expires_at", to: nextIdle)
                .where("id_hash", .equal, idHash).where("idle_expires_at", .greaterThan, time).where("absolute_expires_at", .greaterThan, time)
                .returning(SQLLiteral.all).first(as: PortalSession.self)
            else { return nil }
            let alive = try await db.update("sessions").set("idle_expires_at", to: nextIdle).where("id", .equal, session.sessionId)
                .where("revoked_at", .is, SQLLiteral.null).where("idle_expires_at", .greaterThan, time).where("absolute_expires_at", .greaterThan, time)
                .returning("id").first() != nil
            return alive ? session : nil
        }
    }

    public func deletePortalSession(idHash: Data) async throws {
        try await write { db in try await db.delete(from: "portal_sessions").where("id_hash", .equal, idHash).run() }
    }

    /// Deletes sign-ins never finished, portal sessions and password invitations past their expiry.
    @discardableResult
    public func purgeExpiredPortalState(now: Date = Date()) async throws -> Int {
        let time = now.millisecondsSince1970
        return try await write { db in
            let logins = try await db.delete(from: "portal_logins").where("expires_at", .lessThanOrEqual, time).returning("state_hash").all().count
            let sessions = try await db.delete(from: "portal_sessions")
                .where(SQLBinaryExpression(SQLColumn("idle_expires_at"), .lessThanOrEqual, SQLBind(time)))
                .orWhere("absolute_expires_at", .lessThanOrEqual, time)
                .returning("id_hash").all().count
            let invites = try await db.delete(from: "password_invites").where("expires_at", .lessThanOrEqual, time).returning("token_hash").all().count
            return logins + sessions + invites
        }
    }

    /// The user's sessions that are still alive, newest first.
    public func activeSessions(userID: String, now: Date = Date()) async throws -> [Session] {
        let time = now.millisecondsSince1970
        return try await read { db in
            try await db.select().column("*").from("sessions").where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null)
                .where("idle_expires_at", .greaterThan, time).where("absolute_expires_at", .greaterThan, time)
                .orderBy("created_at", .descending).limit(50).all(as: Session.self)
        }
    }

    /// The user's own recent audit events (where they acted), newest first.
    public func auditEvents(actorUserID: String, actions: [String], limit: Int = 20) async throws -> [AuditEvent] {
        try await read { db in
            try await Self.auditRows(Self.selectAuditEvents(db).where("actor_user_id", .equal, actorUserID).where("action", .in, actions)
                .orderBy("occurred_at", .descending).limit(limit)).map(\.event)
        }
    }

    /// The security events My account shows: where the user acted, or an organisation acted on
    /// their account (`subject_type` user: a membership granted), newest first.
    public func securityEvents(userID: String, actions: [String], limit: Int = 20) async throws -> [AuditEvent] {
        try await read { db in
            try await Self.auditRows(Self.selectAuditEvents(db)
                .where { own in
                    own.where("actor_user_id", .equal, userID)
                        .orWhere { subject in subject.where("subject_type", .equal, "user").where("subject_id", .equal, userID) }
                }
                .where("action", .in, actions)
                .orderBy("occurred_at", .descending).limit(limit)).map(\.event)
        }
    }
}
