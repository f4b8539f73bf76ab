import Foundation
import PortvaktCore
import SQLKit

/// A signed-in session of one user on one client. Times are Unix milliseconds.
public struct Session: Sendable, Hashable, Codable {
    public let id: String
    public let userId: String
    public let clientId: String
    public let deviceId: String?
    /// The passkey whose sign-in opened the session; removing the passkey ends it.
    public let passkeyId: String?
    /// Authentication methods (RFC 8176), space-separated, for example `hwk face`.
    public let amr: String
    public let acr: String
    public let authTime: Int64
    public let createdAt: Int64
    public let idleExpiresAt: Int64
    public let absoluteExpiresAt: Int64
    public let revokedAt: Int64?
    public let revokedReason: String?
    /// The RFC 7638 thumbprint of the client's DPoP key (RFC 9449) its tokens are bound to; nil
    /// for Bearer tokens.
    public let dpopJkt: String?

    /// A new session of a login at `now`.
    public static func starting(
        userID: String, clientID: String, deviceID: String? = nil, passkeyID: String? = nil, amr: [String], acr: String, authTime: Date,
        idleLifetime: TimeInterval, absoluteLifetime: TimeInterval, dpopJKT: String? = nil, now: Date
    ) -> Session {
        Session(
            id: newID(), userId: userID, clientId: clientID, deviceId: deviceID, passkeyId: passkeyID, amr: amr.joined(separator: " "),
            acr: acr, authTime: authTime.millisecondsSince1970, createdAt: now.millisecondsSince1970,
            idleExpiresAt: now.addingTimeInterval(idleLifetime).millisecondsSince1970,
            absoluteExpiresAt: now.addingTimeInterval(absoluteLifetime).millisecondsSince1970,
            revokedAt: nil, revokedReason: nil, dpopJkt: dpopJKT
        )
    }

    /// Whether the session can still be used at `now`.
    public func isActive(at now: Date) -> Bool {
        let time = now.millisecondsSince1970
        return revokedAt == nil && time < idleExpiresAt && time < absoluteExpiresAt
    }
}

/// An opaque refresh token, stored only as a hash; each use rotates it to a successor.
public struct RefreshToken: Sendable, Hashable, Codable {
    public let id: String
    public let sessionId: String
    public let tokenHash: Data
    public let parentId: String?
    public let createdAt: Int64
    public let expiresAt: Int64
    public let rotatedAt: Int64?
    public let successorId: String?
}

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

    /// A completed login in one transaction: the session, the app's single-use code, the time
    /// of a BankID or Vipps login, what it did to the member records (with their outbox
    /// messages) and the audit event. Either all of it is stored or none.
    /// - Parameter bankIDOrderID: the pending BankID order this login completes, marked complete
    ///   in the same transaction.
    /// - Throws: ``StoreError/notFound(_:)`` (`bankid_orders`) when that order had ended already;
    ///   (`passkeys`) when the passkey that opened the session was removed meanwhile.
    public func recordLogin(
        session: Session, code: AuthorizationCode, eidLogin: Bool, memberSync: MemberSyncWrites, audit: AuditEvent,
        bankIDOrderID: String? = nil, now: Date = Date()
    ) async throws {
        try await write { db in
            if let bankIDOrderID {
                guard try await Self.finishBankIDOrder(
                    id: bankIDOrderID, status: .complete, hintCode: nil, userID: session.userId, now: now, in: db
                ) != nil else { throw StoreError.notFound("bankid_orders") }
            }
            if let passkeyID = session.passkeyId {
                guard try await Self.lockPasskey(id: passkeyID, userID: session.userId, in: db) else { throw StoreError.notFound("passkeys") }
            }
            try await db.insert(into: "sessions").row(session).run()
            try await db.insert(into: "authorization_codes").row(code).run()
            if eidLogin {
                try await db.update("users").set("last_eid_login_at", to: now.millisecondsSince1970).where("id", .equal, session.userId).run()
            }
            try await memberSync.apply(in: db, auditKeys: auditKeys, now: now)
            try await append(audit, in: db)
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

    /// Deletes sessions that ended (revoked, idle or past their absolute lifetime, which the idle
    /// expiry never passes) more than `retention` before `now`, with their refresh tokens and
    /// codes; returns how many. A token of a purged session is unknown: `session_expired` as before.
    @discardableResult
    public func purgeEndedSessions(retention: TimeInterval = 86400, now: Date = Date()) async throws -> Int {
        let cutoff = now.addingTimeInterval(-retention).millisecondsSince1970
        return try await write { db in
            try await db.delete(from: "sessions")
                .where { $0.where("idle_expires_at", .lessThan, cutoff).orWhere("revoked_at", .lessThan, cutoff) }
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
