import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// A member's first login: creates the user, links the provider account and gives the user
    /// the roles of the member records, all in one transaction.
    ///
    /// - Parameter requireUnheld: the records must still have no number and no holder (S15, a claim
    ///   by email), checked inside the transaction with the records locked, so two claims of one
    ///   record cannot both win.
    /// - Throws: ``StoreError/duplicate(_:)`` when a concurrent first login of the same person won
    ///   (same provider account or same personnummer); the caller then finds that user instead.
    ///   ``StoreError/constraint(_:)`` when `requireUnheld` and a record was taken, or when every
    ///   record's membership ended meanwhile (a record that ended gives no role).
    public func createMemberUser(
        displayName: String,
        email: String?,
        personnummer seal: ((_ userID: String) throws -> ProtectedPersonnummer)?,
        provider: IdentityProvider,
        subject: String,
        memberRecords: [MemberRecord],
        requireUnheld: Bool = false,
        now: Date = Date()
    ) async throws -> User {
        let id = newID()
        let protected = try seal?(id)
        let time = now.millisecondsSince1970
        let user = User(
            id: id, displayName: displayName, email: email?.lowercased(), passwordHash: nil,
            personnummerSealed: protected.map { $0.sealed.combined }, personnummerKeyId: protected?.sealed.keyID,
            personnummerIndex: protected?.index, createdAt: time, disabledAt: nil
        )
        let identity = Identity(id: newID(), userId: id, provider: provider, subject: subject, createdAt: time, lastLoginAt: time)
        let recordIDs = memberRecords.map(\.id)
        try await write { db in
            // PostgreSQL: lock the records, so a concurrent claim waits and then sees the holder, and
            // a concurrent end of a membership waits and then ends this one too; SQLite writes one
            // transaction at a time.
            let lock: SQLQueryString = db.dialect.name == "postgresql" ? " FOR UPDATE" : ""
            if requireUnheld, !recordIDs.isEmpty {
                let free = try await db.raw("""
                    SELECT id FROM member_records WHERE id IN (\(binds: recordIDs)) AND personnummer_index IS NULL AND ended_at IS NULL AND suspended_at IS NULL\(lock)
                    """).all().count
                let held = try await db.raw("SELECT COUNT(*) AS held FROM memberships WHERE member_record_id IN (\(binds: recordIDs))")
                    .first()?.decode(column: "held", as: Int.self) ?? 0
                guard free == recordIDs.count, held == 0 else { throw StoreError.constraint("member record already held") }
            }
            // A record whose membership ended since it was looked up gives no role (issue 45).
            var lasting = Set<String>()
            if !recordIDs.isEmpty {
                lasting = Set(try await db.raw("""
                    SELECT id FROM member_records WHERE id IN (\(binds: recordIDs)) AND ended_at IS NULL AND suspended_at IS NULL\(lock)
                    """).all().map { try $0.decode(column: "id", as: String.self) })
                guard !lasting.isEmpty else { throw StoreError.constraint("member record ended") }
            }
            // One membership a record, two records with one role included (issue 58 item 5).
            var seen = Set<String>()
            let memberships = memberRecords.compactMap { record -> Membership? in
                guard lasting.contains(record.id), seen.insert(record.id).inserted else { return nil }
                return Membership(userId: id, organisationId: record.organisationId, role: record.role, memberRecordId: record.id, createdAt: time)
            }
            try await db.insert(into: "users").row(user).run()
            try await db.insert(into: "identities").row(identity).run()
            for membership in memberships {
                try await db.insert(into: "memberships").row(membership).run()
            }
        }
        return user
    }

    /// Users invited by email (the admin command): the user with this email, created with the
    /// roles of `memberRecords` when there is none yet; then the password.
    public func setPassword(email: String, passwordHash: String, memberRecords: [MemberRecord], now: Date = Date()) async throws -> User {
        let email = email.lowercased()
        if let existing = try await user(email: email) {
            try await write { db in
                // The row locked first, so an invitation taken meanwhile is seen (PostgreSQL's
                // UPDATE of no row locks nothing).
                try await Self.lockUser(id: existing.id, in: db)
                let replaced = try await db.select().column("id").from("users")
                    .where("id", .equal, existing.id).where("password_hash", .isNot, SQLLiteral.null).first() != nil
                try await db.update("users").set("password_hash", to: passwordHash).where("id", .equal, existing.id).run()
                // A password replaced (not one added) may be known to someone else: they are out.
                if replaced { _ = try await Self.endSessionsForNewPassword(userID: existing.id, at: now.millisecondsSince1970, in: db) }
            }
            return try await user(id: existing.id) ?? existing
        }
        guard let first = memberRecords.first else { throw StoreError.notFound("member_records") }
        let user = try await createMemberUser(
            displayName: first.fullName, email: email, personnummer: nil, provider: .password, subject: email,
            memberRecords: memberRecords, now: now
        )
        try await write { db in
            try await db.update("users").set("password_hash", to: passwordHash).where("id", .equal, user.id).run()
        }
        return try await self.user(id: user.id) ?? user
    }

    /// Member records with this email address, across organisations, whose membership lasts
    /// (an ended record is never claimed, invited or given a password).
    public func memberRecords(email: String) async throws -> [MemberRecord] {
        try await read { db in
            try await db.select().column("*").from("member_records")
                .where(SQLFunction("lower", args: SQLColumn("email")), .equal, SQLBind(email.lowercased()))
                .where("ended_at", .is, SQLLiteral.null).where("suspended_at", .is, SQLLiteral.null)
                .orderBy("created_at").all(as: MemberRecord.self)
        }
    }

    /// Notes the time of a login on the provider account.
    public func recordLogin(provider: IdentityProvider, subject: String, now: Date = Date()) async throws {
        try await write { db in
            try await db.update("identities").set("last_login_at", to: now.millisecondsSince1970)
                .where("provider", .equal, provider.rawValue).where("subject", .equal, subject).run()
        }
    }
}

extension PortvaktStore {
    /// The user already holding one of these member records, if any.
    public func user(holdingAnyOf records: [MemberRecord]) async throws -> User? {
        guard !records.isEmpty else { return nil }
        return try await read { db in
            try await db.select().columns(SQLColumn(SQLLiteral.all, table: SQLIdentifier("users")))
                .from("users")
                .join("memberships", on: SQLColumn("user_id", table: "memberships"), .equal, SQLColumn("id", table: "users"))
                .where(SQLColumn("member_record_id", table: "memberships"), .in, SQLBind.group(records.map(\.id)))
                .orderBy(SQLColumn("created_at", table: "users"))
                .first(as: User.self)
        }
    }
}
