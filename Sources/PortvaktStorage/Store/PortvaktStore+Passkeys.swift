import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// Stores `challenge` for its binding, replacing one that binding had (one at a time each),
    /// in one statement, so two requests at once leave one.
    public func putWebAuthnChallenge(_ challenge: WebAuthnChallenge) async throws {
        try await write { db in
            try await db.raw("""
                INSERT INTO webauthn_challenges (binding_hash, purpose, user_id, challenge, created_at, expires_at) \
                VALUES (\(bind: challenge.bindingHash), \(bind: challenge.purpose), \(bind: challenge.userId), \(bind: challenge.challenge), \
                \(bind: challenge.createdAt), \(bind: challenge.expiresAt)) \
                ON CONFLICT (binding_hash) DO UPDATE SET purpose = excluded.purpose, user_id = excluded.user_id, \
                challenge = excluded.challenge, created_at = excluded.created_at, expires_at = excluded.expires_at
                """).run()
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
    /// registered already (to anyone), or the user has `limit` passkeys.
    public func insertPasskey(_ passkey: Passkey, limit: Int, audit: AuditEvent) async throws -> Bool {
        try await write { db in
            // The user's row locked, so two registrations at once count each other (PostgreSQL;
            // SQLite writes one at a time anyway).
            let lock: SQLQueryString = db.dialect.name == "postgresql" ? " FOR UPDATE" : ""
            _ = try await db.raw("SELECT id FROM users WHERE id = \(bind: passkey.userId)\(lock)").first()
            let count = try await db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count").from("passkeys")
                .where("user_id", .equal, passkey.userId).first()?.decode(column: "count", as: Int.self) ?? 0
            guard count < limit else { return false }
            let inserted = try await db.insert(into: "passkeys").row(passkey).ignoringConflicts(with: ["credential_id"]).returning("id").first()
            guard inserted != nil else { return false }
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

    /// Records an accepted assertion: the counter moves on only forward (or stays 0 for a
    /// passkey that does not count), in the statement that checks it, so two answers at once
    /// cannot both move it to the same value.
    public func recordPasskeyUse(id: String, signCount: Int64, backedUp: Bool, now: Date) async throws -> PasskeyUse {
        try await write { db in
            let moved = try await db.raw("""
                UPDATE passkeys SET sign_count = \(bind: signCount), backed_up = \(bind: backedUp ? 1 : 0), last_used_at = \(bind: now.millisecondsSince1970) \
                WHERE id = \(bind: id) AND (sign_count < \(bind: signCount) OR (sign_count = 0 AND \(bind: signCount) = 0)) RETURNING id
                """).first()
            if moved != nil { return .recorded }
            return try await db.select().column("id").from("passkeys").where("id", .equal, id).first() == nil ? .gone : .counterBehind
        }
    }

    /// Removes the user's passkey with its audit event and ends, in the same transaction, every
    /// session its sign-ins opened (as revoking a device ends those it unlocked): their refresh
    /// tokens stop working, and the portal sessions resting on them are deleted. Nil when the user
    /// has no passkey with that ID.
    ///
    /// The passkey's row is deleted (and so locked) before the sessions are read: a sign-in that
    /// locked it first (``recordLogin(session:code:browser:eidLogin:passwordLogin:memberSync:audit:bankIDOrderID:now:)``)
    /// has committed its session by then, so it ends too; one that comes after finds no passkey.
    public func deletePasskey(id: String, userID: String, audit: AuditEvent, now: Date) async throws -> PasskeyRemoval? {
        try await write { db in
            guard let removed = try await db.delete(from: "passkeys").where("id", .equal, id).where("user_id", .equal, userID)
                .returning(SQLLiteral.all).first(as: Passkey.self)
            else { return nil }
            let ended = try await db.update("sessions")
                .set("revoked_at", to: now.millisecondsSince1970).set("revoked_reason", to: "passkey_removed")
                .where("passkey_id", .equal, id).where("revoked_at", .is, SQLLiteral.null)
                .returning("id").all().map { try $0.decode(column: "id", as: String.self) }
            if !ended.isEmpty {
                try await db.delete(from: "portal_sessions").where("session_id", .in, ended).run()
            }
            // The browser sign-ins the passkey made end with it (their client sessions named it, above).
            let signIns = try await db.select().column("id").from("browser_sessions").where("passkey_id", .equal, id).all()
                .map { try $0.decode(column: "id", as: String.self) }
            _ = try await Self.endBrowserSessions(ids: signIns, reason: "passkey_removed", at: now.millisecondsSince1970, in: db)
            try await self.append(audit, in: db)
            return PasskeyRemoval(passkey: removed, endedSessionIDs: ended)
        }
    }

    /// Locks the user's passkey for a sign-in's new session, in the caller's transaction; false
    /// when it is gone (removed since the assertion was checked).
    static func lockPasskey(id: String, userID: String, in db: any SQLDatabase) async throws -> Bool {
        try await db.update("passkeys").set(SQLIdentifier("id"), to: SQLIdentifier("id"))
            .where("id", .equal, id).where("user_id", .equal, userID)
            .returning("id").first() != nil
    }
}

