import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    public func insertMembershipClaim(
        handleHash: Data, expiresAt: Date, now: Date = Date(), payload seal: (_ claimID: String) throws -> SealedValue
    ) async throws -> MembershipClaim {
        let id = newID()
        let sealed = try seal(id)
        let claim = MembershipClaim(
            id: id, handleHash: handleHash, payloadSealed: sealed.combined, payloadKeyId: sealed.keyID, memberRecordIds: nil,
            codeHash: nil, codeExpiresAt: nil, emailsSent: 0, tries: 0, createdAt: now.millisecondsSince1970, expiresAt: expiresAt.millisecondsSince1970
        )
        try await write { db in try await db.insert(into: "membership_claims").row(claim).run() }
        return claim
    }

    /// The open claim with this handle.
    public func membershipClaim(handleHash: Data, now: Date = Date()) async throws -> MembershipClaim? {
        try await read { db in
            try await db.select().column("*").from("membership_claims").where("handle_hash", .equal, handleHash)
                .where("expires_at", .greaterThan, now.millisecondsSince1970).first(as: MembershipClaim.self)
        }
    }

    /// Counts one more email for the open claim, in the statement that checks the limit: nil
    /// when the claim is unknown, ended, or has sent `limit` already (nothing counted).
    public func countMembershipClaimEmail(handleHash: Data, limit: Int, now: Date = Date()) async throws -> MembershipClaim? {
        try await write { db in
            try await db.raw("""
                UPDATE membership_claims SET emails_sent = emails_sent + 1 \
                WHERE handle_hash = \(bind: handleHash) AND expires_at > \(bind: now.millisecondsSince1970) AND emails_sent < \(bind: limit) \
                RETURNING *
                """).first(as: MembershipClaim.self)
        }
    }

    /// A new code (its hash) for the records the email found (none: a code nobody can know). The
    /// tries go on counting: a claim has five, however many codes it sends.
    public func setMembershipClaimCode(id: String, recordIDs: [String], codeHash: Data, codeExpiresAt: Date) async throws {
        try await write { db in
            try await db.update("membership_claims")
                .set("member_record_ids", to: recordIDs.isEmpty ? nil : recordIDs.joined(separator: ","))
                .set("code_hash", to: codeHash).set("code_expires_at", to: codeExpiresAt.millisecondsSince1970)
                .where("id", .equal, id).run()
        }
    }

    /// Counts one more try at the code, in the statement that checks the limit: nil when the
    /// claim is unknown, ended, has no code yet, or has had `limit` tries (nothing counted).
    public func countMembershipClaimTry(handleHash: Data, limit: Int, now: Date = Date()) async throws -> MembershipClaim? {
        try await write { db in
            try await db.raw("""
                UPDATE membership_claims SET tries = tries + 1 \
                WHERE handle_hash = \(bind: handleHash) AND expires_at > \(bind: now.millisecondsSince1970) \
                AND code_hash IS NOT NULL AND tries < \(bind: limit) \
                RETURNING *
                """).first(as: MembershipClaim.self)
        }
    }

    /// Takes the claim out in one `DELETE … RETURNING`, so a code is good for one link only.
    public func takeMembershipClaim(handleHash: Data) async throws -> MembershipClaim? {
        try await write { db in
            try await db.delete(from: "membership_claims").where("handle_hash", .equal, handleHash)
                .returning(SQLLiteral.all).first(as: MembershipClaim.self)
        }
    }

    /// Deletes claims that ended before `now` (each holds a sealed personnummer); returns how many.
    @discardableResult
    public func purgeExpiredMembershipClaims(now: Date = Date()) async throws -> Int {
        try await write { db in
            try await db.delete(from: "membership_claims").where("expires_at", .lessThanOrEqual, now.millisecondsSince1970)
                .returning("id").all().count
        }
    }
}
