import SQLKit

/// Version 22: a BankID or Vipps login that found no member record, while the person claims one
/// by an emailed code (S15). Found by the hash of the page's handle; the login's identity is
/// sealed in the payload; the code is kept as a hash; emails and tries are counted here, in the
/// same statement that lets one more through.
enum MembershipClaims {
    static func apply(_ db: any SQLDatabase) async throws {
        try await db.create(table: "membership_claims")
            .column("id", type: .text, .primaryKey(autoIncrement: false))
            .column("handle_hash", type: .blob, .notNull)
            .column("payload_sealed", type: .blob, .notNull)
            .column("payload_key_id", type: .text, .notNull)
            .column("member_record_ids", type: .text)
            .column("code_hash", type: .blob)
            .column("code_expires_at", type: .bigint)
            .column("emails_sent", type: .int, .notNull)
            .column("tries", type: .int, .notNull)
            .column("created_at", type: .bigint, .notNull)
            .column("expires_at", type: .bigint, .notNull)
            .unique("handle_hash", named: "membership_claims_handle_hash_key")
            .run()
        try await db.create(index: "membership_claims_expires_idx").on("membership_claims").column("expires_at").run()
    }
}
