import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// Disables the account and, in the same transaction, revokes every live session of it
    /// (`reason`; app, portal and device-unlock sessions, and with them their refresh tokens and
    /// unredeemed codes), deletes its portal sessions and appends `audit`'s events. Devices and
    /// passkeys stay: every use of them is refused while the account is disabled, so enabling it
    /// gives them back.
    ///
    /// No session can start for the account afterwards (migration 28). On PostgreSQL the user's
    /// row is locked `FOR UPDATE` after a first round of revocations and before a second: a login
    /// inserting a session (its trigger holds the row `FOR KEY SHARE`) either commits before the
    /// lock, and its session is revoked by the second round, or waits for this commit and is
    /// refused. The sessions are revoked before the row is locked so that an unlock, which ends
    /// the device's earlier session before inserting its own, never waits on this transaction
    /// while this one waits on it.
    /// - Parameter audit: the events to append, given what was done; called inside the transaction.
    /// - Returns: nil when no account has the id.
    public func disableUser(
        id: String, reason: String, audit: @escaping @Sendable (AccountAccessChange) -> [AuditEvent], now: Date = Date()
    ) async throws -> AccountAccessChange? {
        let time = now.millisecondsSince1970
        return try await write { db in
            let first = try await Self.endAccess(userID: id, reason: reason, at: time, in: db)
            let lock: SQLQueryString = db.dialect.name == "postgresql" ? " FOR UPDATE" : ""
            guard try await db.raw("SELECT id FROM users WHERE id = \(bind: id)\(lock)").first() != nil else { return nil }
            // An account disabled already keeps the time it was disabled at.
            let changed = try await db.update("users").set("disabled_at", to: time)
                .where("id", .equal, id).where("disabled_at", .is, SQLLiteral.null).returning("id").first() != nil
            let second = try await Self.endAccess(userID: id, reason: reason, at: time, in: db)
            let change = AccountAccessChange(
                userID: id, changed: changed, sessionsEnded: first.sessions + second.sessions, portalSessionsEnded: first.portal + second.portal
            )
            for event in audit(change) { try await append(event, in: db) }
            return change
        }
    }

    /// Enables a disabled account: its devices and passkeys work again, and its next login opens
    /// a session. Nothing that ended when it was disabled comes back.
    /// - Returns: nil when no account has the id; `changed` false when it was not disabled.
    public func enableUser(
        id: String, audit: @escaping @Sendable (AccountAccessChange) -> [AuditEvent], now: Date = Date()
    ) async throws -> AccountAccessChange? {
        try await write { db in
            guard try await db.select().column("id").from("users").where("id", .equal, id).first() != nil else { return nil }
            let changed = try await db.update("users").set("disabled_at", to: SQLLiteral.null)
                .where("id", .equal, id).where("disabled_at", .isNot, SQLLiteral.null).returning("id").first() != nil
            let change = AccountAccessChange(userID: id, changed: changed, sessionsEnded: 0, portalSessionsEnded: 0)
            for event in audit(change) { try await append(event, in: db) }
            return change
        }
    }

    /// Signs the account out everywhere: every live session (app, portal and device-unlock) is
    /// revoked with `reason` and every portal session deleted, with `audit`'s events, in one
    /// transaction. The account stays usable: its next login, unlock or passkey opens a session.
    /// - Returns: nil when no account has the id.
    public func signOutUser(
        id: String, reason: String, audit: @escaping @Sendable (AccountAccessChange) -> [AuditEvent], now: Date = Date()
    ) async throws -> AccountAccessChange? {
        let time = now.millisecondsSince1970
        return try await write { db in
            guard try await db.select().column("id").from("users").where("id", .equal, id).first() != nil else { return nil }
            let (sessions, portal) = try await Self.endAccess(userID: id, reason: reason, at: time, in: db)
            let change = AccountAccessChange(userID: id, changed: sessions + portal > 0, sessionsEnded: sessions, portalSessionsEnded: portal)
            for event in audit(change) { try await append(event, in: db) }
            return change
        }
    }

    /// Revokes the user's live sessions and deletes their portal sessions and browser sign-ins, in the caller's
    /// transaction; returns how many of each.
    private static func endAccess(userID: String, reason: String, at time: Int64, in db: any SQLDatabase) async throws -> (sessions: Int, portal: Int) {
        // The browsers' sign-ins first: a code being made from one holds its row, so this waits for
        // that session to be inserted, and the update below ends it too.
        try await deleteBrowserSessions(userIDs: [userID], in: db)
        let sessions = try await db.update("sessions").set("revoked_at", to: time).set("revoked_reason", to: reason)
            .where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null)
            .where("idle_expires_at", .greaterThan, time).where("absolute_expires_at", .greaterThan, time)
            .returning("id").all().count
        let portal = try await db.delete(from: "portal_sessions").where("user_id", .equal, userID).returning("id_hash").all().count
        return (sessions, portal)
    }
}

