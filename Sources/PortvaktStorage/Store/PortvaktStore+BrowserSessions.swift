import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

/// A browser's single sign-on (``BrowserSession``) and the client sessions resting on it.
extension PortvaktStore {
    /// The live sign-in behind a cookie's hash, its idle expiry moved on by `idle` (never past the
    /// absolute one); nil when unknown or expired.
    public func touchBrowserSession(idHash: Data, idle: TimeInterval, now: Date = Date()) async throws -> BrowserSession? {
        let time = now.millisecondsSince1970
        return try await write { db in
            let nextIdle = SQLFunction(db.dialect.name == "sqlite" ? "MIN" : "LEAST", args: SQLBind(time + Int64(idle * 1000)), SQLColumn("absolute_expires_at"))
            return try await db.update("browser_sessions").set("idle_expires_at", to: nextIdle)
                .where("id_hash", .equal, idHash).where("idle_expires_at", .greaterThan, time).where("absolute_expires_at", .greaterThan, time)
                .returning(SQLLiteral.all).first(as: BrowserSession.self)
        }
    }

    /// The live sign-in behind a cookie's hash, as it is; nil when unknown or expired.
    public func browserSession(idHash: Data, now: Date = Date()) async throws -> BrowserSession? {
        let time = now.millisecondsSince1970
        return try await read { db in
            try await db.select().column("*").from("browser_sessions").where("id_hash", .equal, idHash)
                .where("idle_expires_at", .greaterThan, time).where("absolute_expires_at", .greaterThan, time).first(as: BrowserSession.self)
        }
    }

    /// Ends a browser's sign-in and every client session it signed in (each one's client is told
    /// over the back channel when it asked); returns how many sessions ended.
    @discardableResult
    public func endBrowserSession(id: String, reason: String, now: Date = Date()) async throws -> Int {
        try await write { db in try await Self.endBrowserSessions(ids: [id], reason: reason, at: now.millisecondsSince1970, in: db) }
    }

    /// Ends every browser sign-in of the user but `keeping` (this browser's), and the client
    /// sessions on them; returns how many sessions ended.
    @discardableResult
    public func endBrowserSessions(userID: String, keeping: String?, reason: String, now: Date = Date()) async throws -> Int {
        try await write { db in
            var query = db.select().column("id").from("browser_sessions").where("user_id", .equal, userID)
            if let keeping { query = query.where("id", .notEqual, keeping) }
            let ids = try await query.all().map { try $0.decode(column: "id", as: String.self) }
            return try await Self.endBrowserSessions(ids: ids, reason: reason, at: now.millisecondsSince1970, in: db)
        }
    }

    /// The user's live browser sign-ins, newest first (My account's "Where you are signed in").
    public func browserSessions(userID: String, now: Date = Date()) async throws -> [BrowserSession] {
        let time = now.millisecondsSince1970
        return try await read { db in
            try await db.select().column("*").from("browser_sessions").where("user_id", .equal, userID)
                .where("idle_expires_at", .greaterThan, time).where("absolute_expires_at", .greaterThan, time)
                .orderBy("created_at", .descending).limit(50).all(as: BrowserSession.self)
        }
    }

    /// Deletes the sign-ins past their idle or absolute expiry (their client sessions keep their
    /// own lifetimes); returns how many.
    @discardableResult
    public func purgeExpiredBrowserSessions(now: Date = Date()) async throws -> Int {
        let time = now.millisecondsSince1970
        return try await write { db in
            try await db.delete(from: "browser_sessions")
                .where(SQLBinaryExpression(SQLColumn("idle_expires_at"), .lessThanOrEqual, SQLBind(time)))
                .orWhere("absolute_expires_at", .lessThanOrEqual, time)
                .returning("id").all().count
        }
    }

    /// Deletes the sign-ins and revokes their client sessions, in the caller's transaction.
    static func endBrowserSessions(ids: [String], reason: String, at time: Int64, in db: any SQLDatabase) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        try await db.delete(from: "browser_sessions").where("id", .in, ids).run()
        return try await db.update("sessions").set("revoked_at", to: time).set("revoked_reason", to: reason)
            .where("browser_session_id", .in, ids).where("revoked_at", .is, SQLLiteral.null)
            .returning("id").all().count
    }

    /// Every browser sign-in of these users ends (their client sessions are revoked by the caller).
    static func deleteBrowserSessions(userIDs: [String], in db: any SQLDatabase) async throws {
        guard !userIDs.isEmpty else { return }
        try await db.delete(from: "browser_sessions").where("user_id", .in, userIDs).run()
    }

    /// Writes a new browser sign-in, in the login's transaction: the earlier one of the same
    /// person hands its client sessions over, another person's ends with them.
    static func insert(_ login: BrowserLogin, at time: Int64, in db: any SQLDatabase) async throws {
        try await db.insert(into: "browser_sessions").row(login.session).run()
        guard let earlier = login.replacing else { return }
        if earlier.userId == login.session.userId {
            // The row first: a code being made from it holds it, so this waits for that session,
            // and the update below moves it too.
            try await db.delete(from: "browser_sessions").where("id", .equal, earlier.id).run()
            try await db.update("sessions").set("browser_session_id", to: login.session.id).where("browser_session_id", .equal, earlier.id).run()
        } else {
            _ = try await endBrowserSessions(ids: [earlier.id], reason: "signed_in_as_another", at: time, in: db)
        }
    }

    /// Locks the browser sign-in a session is being made under; false when it has ended, so no
    /// session is made under a sign-in that a sign-out is ending (the sign-out deletes the row
    /// first, then revokes what rests on it).
    static func lockBrowserSession(id: String, in db: any SQLDatabase) async throws -> Bool {
        let lock: SQLQueryString = db.dialect.name == "postgresql" ? " FOR UPDATE" : ""
        return try await db.raw("SELECT id FROM browser_sessions WHERE id = \(bind: id)\(lock)").first() != nil
    }
}
