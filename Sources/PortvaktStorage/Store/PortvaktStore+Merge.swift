import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// Merges two accounts of one person: everything of `removeID` (provider accounts, roles,
    /// devices, activities, claims, contact assignments, sync entries) moves to `keepID`, then
    /// `removeID` is deleted with its sessions. One transaction.
    ///
    /// - Parameter personnummer: the kept user's number afterwards, sealed for the kept user (the
    ///   caller takes the removed user's when the kept one has none); nil leaves it as it is.
    /// - Parameter organisationID: an administrator's merge stays inside this organisation: checked
    ///   again here, with both rows locked, against the memberships (suspended ones included).
    /// - Throws: ``StoreError/notFound(_:)`` when either user is missing or disabled; ``StoreError/duplicate(_:)``
    ///   when both wrote under the same idempotency key; ``StoreError/constraint(_:)`` when either
    ///   account belongs to another organisation than `organisationID`.
    public func mergeUsers(
        keep keepID: String, remove removeID: String, personnummer: ProtectedPersonnummer?, confinedTo organisationID: String? = nil, audit: AuditEvent
    ) async throws {
        try await write { db in
            // A disabled account is never merged: its ways in would open the other (issue 45 item 5).
            // PostgreSQL: both rows are locked (in one order, so two merges cannot deadlock), and
            // a disable or an erasure that got there first is waited for and then seen: a merge
            // never undoes it (issue 58). SQLite writes one transaction at a time.
            let lock: SQLQueryString = db.dialect.name == "postgresql" ? " FOR UPDATE" : ""
            guard try await db.raw("""
                SELECT id FROM users WHERE id IN (\(binds: [keepID, removeID])) AND disabled_at IS NULL ORDER BY id\(lock)
                """).all().count == 2 else {
                throw StoreError.notFound("users")
            }
            if let organisationID, try await Self.memberOrganisationIDs(userIDs: [keepID, removeID], in: db) != [organisationID] {
                throw StoreError.constraint("merge_other_organisation")
            }
            let removed = try await db.select().column("*").from("users").where("id", .equal, removeID).first(as: User.self)
            try await db.update("identities").set("user_id", to: keepID).where("user_id", .equal, removeID).run()
            try await db.update("member_records").set("suspended_user_id", to: keepID).where("suspended_user_id", .equal, removeID).run()
            // A record's membership moves with its holder (a record is held by one account); one
            // without a record moves unless the kept account has that role without one already.
            try await db.update("memberships").set("user_id", to: keepID)
                .where("user_id", .equal, removeID).where("member_record_id", .isNot, SQLLiteral.null).run()
            for membership in try await db.select().column("*").from("memberships").where("user_id", .equal, removeID).all(as: Membership.self) {
                try await db.insert(into: "memberships").row(Membership(
                    userId: keepID, organisationId: membership.organisationId, role: membership.role,
                    memberRecordId: membership.memberRecordId, createdAt: membership.createdAt
                )).ignoringConflicts().run()
            }
            for (table, column) in [
                ("devices", "user_id"), ("activities", "user_id"), ("expense_claims", "user_id"), ("contacts", "assigned_user_id"),
                ("contacts", "created_by"), ("member_sync_log", "user_id"), ("bankid_orders", "user_id"),
                ("passkeys", "user_id"),
            ] {
                try await db.update(table).set(SQLIdentifier(column), to: SQLBind(keepID)).where(SQLIdentifier(column), .equal, SQLBind(removeID)).run()
            }
            // The removed account's sessions end (services that asked are told), then go with it.
            try await db.delete(from: "browser_sessions").where("user_id", .equal, removeID).run()
            try await db.update("sessions").set("revoked_at", to: audit.occurredAt.millisecondsSince1970).set("revoked_reason", to: "merged")
                .where("user_id", .equal, removeID).where("revoked_at", .is, SQLLiteral.null).run()
            // Free the unique email and personnummer before the kept user takes them.
            try await db.delete(from: "users").where("id", .equal, removeID).run()
            if let personnummer {
                try await db.update("users")
                    .set("personnummer_sealed", to: personnummer.sealed.combined).set("personnummer_key_id", to: personnummer.sealed.keyID)
                    .set("personnummer_index", to: personnummer.index).where("id", .equal, keepID).run()
            }
            if let email = removed?.email {
                try await db.update("users").set("email", to: email).where("id", .equal, keepID).where("email", .is, SQLLiteral.null).run()
            }
            if let eid = removed?.lastEidLoginAt {
                try await db.update("users").set("last_eid_login_at", to: eid).where("id", .equal, keepID)
                    .where { $0.where("last_eid_login_at", .is, SQLLiteral.null).orWhere("last_eid_login_at", .lessThan, eid) }.run()
            }
            try await append(audit, in: db)
        }
    }
}
