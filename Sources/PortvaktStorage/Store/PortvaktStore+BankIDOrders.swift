import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// Stores a new pending order; `seal` seals the payload for the new row's id.
    public func insertBankIDOrder(
        sessionHash: Data, clientID: String, startedAt: Date, expiresAt: Date,
        payload seal: (_ orderID: String) throws -> SealedValue
    ) async throws -> BankIDOrderRecord {
        let id = newID()
        let sealed = try seal(id)
        let order = BankIDOrderRecord(
            id: id, sessionHash: sessionHash, clientId: clientID, payloadSealed: sealed.combined, payloadKeyId: sealed.keyID,
            status: .pending, hintCode: nil, userId: nil, startedAt: startedAt.millisecondsSince1970,
            expiresAt: expiresAt.millisecondsSince1970, finishedAt: nil
        )
        try await write { db in try await db.insert(into: "bankid_orders").row(order).run() }
        return order
    }

    public func bankIDOrder(sessionHash: Data) async throws -> BankIDOrderRecord? {
        try await read { db in
            try await db.select().column("*").from("bankid_orders").where("session_hash", .equal, sessionHash).first(as: BankIDOrderRecord.self)
        }
    }

    /// Ends a pending order as `status`; returns the order as ended, or nil when it had already
    /// ended (then the caller lost a race and must read the winner's result).
    public func finishBankIDOrder(
        id: String, status: BankIDOrderRecord.Status, hintCode: String?, userID: String? = nil, now: Date = Date()
    ) async throws -> BankIDOrderRecord? {
        try await write { db in try await Self.finishBankIDOrder(id: id, status: status, hintCode: hintCode, userID: userID, now: now, in: db) }
    }

    static func finishBankIDOrder(
        id: String, status: BankIDOrderRecord.Status, hintCode: String?, userID: String?, now: Date, in db: any SQLDatabase
    ) async throws -> BankIDOrderRecord? {
        try await db.update("bankid_orders")
            .set("status", to: status.rawValue)
            .set("hint_code", to: hintCode)
            .set("user_id", to: userID)
            .set("finished_at", to: now.millisecondsSince1970)
            .where("id", .equal, id)
            .where("status", .equal, BankIDOrderRecord.Status.pending.rawValue)
            .returning(SQLLiteral.all)
            .first(as: BankIDOrderRecord.self)
    }

    /// Deletes orders that expired more than `retention` before `now` (kept that long so that a
    /// late collect or cancel still gets the order's result); returns how many.
    @discardableResult
    public func purgeExpiredBankIDOrders(retention: TimeInterval = 600, now: Date = Date()) async throws -> Int {
        try await write { db in
            try await db.delete(from: "bankid_orders")
                .where("expires_at", .lessThanOrEqual, now.addingTimeInterval(-retention).millisecondsSince1970)
                .returning("id").all().count
        }
    }
}
