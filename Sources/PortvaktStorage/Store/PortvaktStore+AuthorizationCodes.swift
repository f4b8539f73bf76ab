import Foundation
import PortvaktModels
import SQLKit

extension PortvaktStore {
    public func insertAuthorizationCode(_ code: AuthorizationCode) async throws {
        try await write { db in try await db.insert(into: "authorization_codes").row(code).run() }
    }

    /// Takes a code in one `UPDATE … RETURNING` statement, so that of two concurrent redemptions
    /// exactly one gets it. The row stays, marked redeemed, until it would have expired: a later
    /// redemption is then a ``CodeRedemption/replayed(sessionID:)``.
    public func redeemAuthorizationCode(hash: Data, now: Date = Date()) async throws -> CodeRedemption {
        let time = now.millisecondsSince1970
        return try await write { db in
            if let code = try await db.update("authorization_codes").set("redeemed_at", to: time)
                .where("code_hash", .equal, hash).where("redeemed_at", .is, SQLLiteral.null)
                .returning(SQLLiteral.all).first(as: AuthorizationCode.self) {
                return code.expiresAt > time ? .redeemed(code) : .unknown
            }
            guard let used = try await db.select().column("session_id").column("expires_at").from("authorization_codes")
                .where("code_hash", .equal, hash).first()
            else { return .unknown }
            return try used.decode(column: "expires_at", as: Int64.self) > time
                ? .replayed(sessionID: try used.decode(column: "session_id", as: String.self)) : .unknown
        }
    }
}

extension PortvaktStore {
    /// Deletes codes nobody redeemed before they expired; returns how many.
    @discardableResult
    public func purgeExpiredAuthorizationCodes(now: Date = Date()) async throws -> Int {
        try await write { db in
            try await db.delete(from: "authorization_codes").where("expires_at", .lessThanOrEqual, now.millisecondsSince1970)
                .returning("session_id").all().count
        }
    }
}
