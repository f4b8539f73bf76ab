import Foundation
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// Records a DPoP proof's `jti` (as a hash, scoped to its key by the caller) until it
    /// expires; false when it was recorded before: a replay, whichever instance saw it first.
    public func recordDPoPProof(_ record: DPoPProofRecord) async throws -> Bool {
        try await write { db in try await Self.recordDPoPProof(record, in: db) }
    }

    static func recordDPoPProof(_ record: DPoPProofRecord, in db: any SQLDatabase) async throws -> Bool {
        try await db.insert(into: "dpop_proofs").columns("jti_hash", "expires_at")
            .values(SQLBind(record.jtiHash), SQLBind(record.expiresAt.millisecondsSince1970))
            .ignoringConflicts(with: ["jti_hash"])
            .returning("jti_hash").first() != nil
    }

    /// Deletes proof records past their window; returns how many.
    @discardableResult
    public func purgeExpiredDPoPProofs(now: Date = Date()) async throws -> Int {
        try await write { db in
            try await db.delete(from: "dpop_proofs").where("expires_at", .lessThanOrEqual, now.millisecondsSince1970)
                .returning("jti_hash").all().count
        }
    }
}

