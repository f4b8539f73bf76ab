import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    public func createSession(
        userID: String, clientID: String, deviceID: String? = nil, amr: [String], acr: String,
        authTime: Date, idleLifetime: TimeInterval, absoluteLifetime: TimeInterval, now: Date = Date()
    ) async throws -> Session {
        let session = Session.starting(
            userID: userID, clientID: clientID, deviceID: deviceID, amr: amr, acr: acr, authTime: authTime,
            idleLifetime: idleLifetime, absoluteLifetime: absoluteLifetime, now: now
        )
        try await write { db in try await db.insert(into: "sessions").row(session).run() }
        return session
    }

    /// A completed login in one transaction: the session, the app's single-use code, the browser's
    /// single sign-on, the time of a BankID, Vipps or password login, what it did to the member records (with
    /// their outbox messages) and the audit event. Either all of it is stored or none.
    /// - Parameters:
    ///   - session: nil with `code` when the login only signs the browser in (a third party's
    ///     consent is asked next, from that sign-in).
    ///   - browser: the browser's new sign-in; a `session` made under an existing one names it
    ///     (`browserSessionId`) and is refused when that sign-in has ended meanwhile.
    ///   - bankIDOrderID: the pending BankID order this login completes, marked complete
    ///     in the same transaction.
    /// - Throws: ``StoreError/notFound(_:)`` (`bankid_orders`) when that order had ended already;
    ///   (`passkeys`) when the passkey that opened the session was removed meanwhile;
    ///   (`browser_sessions`) when the sign-in a session rests on has ended.
    public func recordLogin(
        session: Session?, code: AuthorizationCode?, browser: BrowserLogin? = nil, eidLogin: Bool, passwordLogin: Bool = false,
        memberSync: MemberSyncWrites, audit: AuditEvent, bankIDOrderID: String? = nil, now: Date = Date()
    ) async throws {
        let time = now.millisecondsSince1970
        try await write { db in
            guard let userID = session?.userId ?? browser?.session.userId else { throw StoreError.constraint("sessions") }
            if let bankIDOrderID {
                guard try await Self.finishBankIDOrder(
                    id: bankIDOrderID, status: .complete, hintCode: nil, userID: userID, now: now, in: db
                ) != nil else { throw StoreError.notFound("bankid_orders") }
            }
            if let passkeyID = session?.passkeyId ?? browser?.session.passkeyId {
                guard try await Self.lockPasskey(id: passkeyID, userID: userID, in: db) else { throw StoreError.notFound("passkeys") }
            }
            if let browser {
                try await Self.insert(browser, at: time, in: db)
            } else if let resting = session?.browserSessionId {
                guard try await Self.lockBrowserSession(id: resting, in: db) else { throw StoreError.notFound("browser_sessions") }
            }
            if let session { try await db.insert(into: "sessions").row(session).run() }
            if let code { try await db.insert(into: "authorization_codes").row(code).run() }
            if eidLogin {
                try await db.update("users").set("last_eid_login_at", to: time).where("id", .equal, userID).run()
            }
            if passwordLogin {
                try await db.update("users").set("last_password_login_at", to: time).where("id", .equal, userID).run()
            }
            try await memberSync.apply(in: db, auditKeys: auditKeys, now: now)
            try await append(audit, in: db)
        }
    }

    /// The password was entered again and was right (a step-up): a password-level device key's
    /// trust counts from it, as from a login.
    public func recordPasswordProof(userID: String, now: Date = Date()) async throws {
        try await write { db in
            try await db.update("users").set("last_password_login_at", to: now.millisecondsSince1970).where("id", .equal, userID).run()
        }
    }

    /// Binds a session that is not yet bound to the DPoP key `jkt` (at the redemption of its
    /// code); returns the session as it is now, or nil when it is bound to another key or gone.
    public func bindSession(id: String, dpopJKT jkt: String) async throws -> Session? {
        try await write { db in
            try await db.update("sessions").set("dpop_jkt", to: jkt)
                .where("id", .equal, id).where("dpop_jkt", .is, SQLLiteral.null).run()
            let session = try await db.select().column("*").from("sessions").where("id", .equal, id).first(as: Session.self)
            return session?.dpopJkt == jkt ? session : nil
        }
    }

    public func session(id: String) async throws -> Session? {
        try await read { db in
            try await db.select().column("*").from("sessions").where("id", .equal, id).first(as: Session.self)
        }
    }

    /// Revokes a session (and with it every refresh token of it); revoking twice keeps the first reason.
    public func revokeSession(id: String, reason: String, now: Date = Date()) async throws {
        try await write { db in try await Self.revokeSession(id: id, reason: reason, at: now.millisecondsSince1970, in: db) }
    }

    /// Deletes sessions that ended (revoked, idle or past their absolute lifetime: an unlocked
    /// session's absolute end is the device trust's, which its idle expiry may pass) more than
    /// `retention` before `now`, with their refresh tokens and codes; returns how many. A token
    /// of a purged session is unknown: `session_expired` as before.
    @discardableResult
    public func purgeEndedSessions(retention: TimeInterval = 86400, now: Date = Date()) async throws -> Int {
        let cutoff = now.addingTimeInterval(-retention).millisecondsSince1970
        return try await write { db in
            try await db.delete(from: "sessions")
                .where {
                    $0.where("idle_expires_at", .lessThan, cutoff).orWhere("absolute_expires_at", .lessThan, cutoff)
                        .orWhere("revoked_at", .lessThan, cutoff)
                }
                .returning("id").all().count
        }
    }

    /// Stores a new refresh token's hash.
    /// - Throws: ``StoreError/duplicate(_:)`` when the hash exists already.
    public func insertRefreshToken(
        sessionID: String, tokenHash: Data, parentID: String? = nil, expiresAt: Date, now: Date = Date()
    ) async throws -> RefreshToken {
        let token = RefreshToken(
            id: newID(), sessionId: sessionID, tokenHash: tokenHash, parentId: parentID,
            createdAt: now.millisecondsSince1970, expiresAt: expiresAt.millisecondsSince1970, rotatedAt: nil, successorId: nil
        )
        try await write { db in try await db.insert(into: "refresh_tokens").row(token).run() }
        return token
    }

    public func refreshToken(hash: Data) async throws -> RefreshToken? {
        try await read { db in
            try await Self.refreshToken(hash: hash, in: db)
        }
    }
}
