import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// Suspends the membership resting on a record, in one transaction with its audit events:
    /// the record is marked suspended (so nothing links it again) with the account that held it,
    /// and the roles resting on it end as ``endMemberships(recordIDs:reason:audit:now:)`` ends them.
    /// - Returns: what ended; empty when the record was suspended already.
    /// - Throws: ``StoreError/constraint(_:)`` when `holder` does not hold the record (nothing changes).
    public func suspendMembership(
        recordID: String, holder: String, reason: String, audit: @escaping @Sendable ([EndedAccess]) -> [AuditEvent], now: Date = Date()
    ) async throws -> [EndedAccess] {
        let time = now.millisecondsSince1970
        return try await write { db in
            let marked = try await db.update("member_records")
                .set("suspended_at", to: time).set("suspended_user_id", to: holder)
                .where("id", .equal, recordID).where("suspended_at", .is, SQLLiteral.null)
                .returning("id").all()
            guard !marked.isEmpty else { return [] }
            // The account the administrator was shown must hold the record still: else nothing changes.
            let holders = try await db.select().column("user_id").from("memberships").where("member_record_id", .equal, recordID).all()
                .map { try $0.decode(column: "user_id", as: String.self) }
            guard holders == [holder] else { throw StoreError.constraint("member record held by another account") }
            let ended = try await Self.endMemberships(recordIDs: [recordID], reason: reason, at: time, in: db)
            for event in audit(ended) { try await Self.append(event, in: db, keys: auditKeys) }
            return ended
        }
    }

    /// Lifts a record's suspension: the record may be linked again, and the account that held it
    /// (when it still exists and the membership lasts) holds it again at once (disabled or not:
    /// that is a matter of the account);
    /// audited in the same transaction.
    /// - Returns: the account given the membership back; nil when none was (the record lasts
    ///   for its holder's next login, or ended meanwhile).
    /// - Throws: ``StoreError/notFound(_:)`` when the record is not suspended.
    public func liftSuspension(
        recordID: String, audit: @escaping @Sendable (_ restoredTo: String?) -> AuditEvent, now: Date = Date()
    ) async throws -> String? {
        let time = now.millisecondsSince1970
        return try await write { db in
            // PostgreSQL: locked, so a directory change that ends or moves the record waits, and
            // the role given back is the record's as it is now.
            let lock: SQLQueryString = db.dialect.name == "postgresql" ? " FOR UPDATE" : ""
            guard let record = try await db.raw("""
                SELECT * FROM member_records WHERE id = \(bind: recordID) AND suspended_at IS NOT NULL\(lock)
                """).first(as: MemberRecord.self),
                let suspendedAt = record.suspendedAt
            else { throw StoreError.notFound("member_records") }
            // Conditional on the suspension read: of two lifts at once, one lifts.
            let lifted = try await db.update("member_records")
                .set("suspended_at", to: SQLLiteral.null).set("suspended_user_id", to: SQLLiteral.null)
                .where("id", .equal, recordID).where("suspended_at", .equal, suspendedAt)
                .returning("id").all()
            guard !lifted.isEmpty else { throw StoreError.notFound("member_records") }
            var restoredTo: String?
            if record.endedAt == nil, let holder = record.suspendedUserId {
                // SQLite reads the upsert of an INSERT … SELECT unambiguously only after a WHERE: it has one.
                let rows = try await db.raw("""
                    INSERT INTO memberships (user_id, organisation_id, role, member_record_id, created_at) \
                    SELECT users.id, \(bind: record.organisationId), \(bind: record.role.rawValue), \(bind: record.id), CAST(\(bind: time) AS BIGINT) \
                    FROM users JOIN member_records lifted ON lifted.id = \(bind: record.id) WHERE users.id = \(bind: holder) \
                    AND (lifted.personnummer_index IS NULL OR lifted.personnummer_index = users.personnummer_index) \
                    AND NOT EXISTS (SELECT 1 FROM memberships held WHERE held.member_record_id = \(bind: record.id)) \
                    ON CONFLICT DO NOTHING RETURNING user_id
                    """).all()
                restoredTo = rows.isEmpty ? nil : holder
            }
            try await Self.append(audit(restoredTo), in: db, keys: auditKeys)
            return restoredTo
        }
    }
}
