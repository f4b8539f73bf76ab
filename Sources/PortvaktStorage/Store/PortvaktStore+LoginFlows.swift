import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// Stores a flow; `seal` seals the payload for the new row's id.
    public func insertLoginFlow(
        kind: String, stateHash: Data, expiresAt: Date, now: Date = Date(),
        payload seal: (_ flowID: String) throws -> SealedValue
    ) async throws -> LoginFlow {
        let id = newID()
        let sealed = try seal(id)
        let flow = LoginFlow(
            id: id, kind: kind, stateHash: stateHash, payloadSealed: sealed.combined, payloadKeyId: sealed.keyID,
            createdAt: now.millisecondsSince1970, expiresAt: expiresAt.millisecondsSince1970
        )
        try await write { db in try await db.insert(into: "login_flows").row(flow).run() }
        return flow
    }

    /// A flow that is still open, left in place (the password page may be submitted again).
    public func loginFlow(stateHash: Data, now: Date = Date()) async throws -> LoginFlow? {
        let flow = try await read { db in
            try await db.select().column("*").from("login_flows").where("state_hash", .equal, stateHash).first(as: LoginFlow.self)
        }
        return flow.flatMap { $0.expiresAt > now.millisecondsSince1970 ? $0 : nil }
    }

    /// Takes a flow out in one `DELETE … RETURNING`, so a replayed `state` finds nothing.
    public func takeLoginFlow(stateHash: Data, now: Date = Date()) async throws -> LoginFlow? {
        let flow = try await write { db in
            try await db.delete(from: "login_flows").where("state_hash", .equal, stateHash)
                .returning(SQLLiteral.all).first(as: LoginFlow.self)
        }
        return flow.flatMap { $0.expiresAt > now.millisecondsSince1970 ? $0 : nil }
    }

    /// Deletes flows that expired before `now`; returns how many.
    @discardableResult
    public func purgeExpiredLoginFlows(now: Date = Date()) async throws -> Int {
        try await write { db in
            try await db.delete(from: "login_flows").where("expires_at", .lessThanOrEqual, now.millisecondsSince1970)
                .returning("id").all().count
        }
    }
}
