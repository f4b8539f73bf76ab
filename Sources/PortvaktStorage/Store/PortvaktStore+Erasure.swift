import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// What erasing the account would remove; nil when no account has this id.
    public func accountFootprint(userID: String) async throws -> AccountFootprint? {
        try await read { db in
            guard let subject = try await ErasureSubject.read(userID: userID, in: db, locking: false) else { return nil }
            return AccountFootprint(user: subject.user, records: subject.records, counts: try await subject.counts(in: db))
        }
    }

    /// Erases an account (GDPR art. 17) in one transaction: the `users` row and everything that
    /// belongs to it alone — provider accounts, roles, sessions (with refresh tokens and codes),
    /// portal sessions, devices, passkeys, activities, expense claims, invitations, emails to its
    /// addresses, pending BankID orders and passkey challenges, the client addresses of its audit
    /// events — goes. What is the organisation's stays without it: member records (the member
    /// system's, unlinked), contacts (unassigned), member-sync entries (without the account and
    /// the number its login brought; an open conflict of its own login is closed as `account_erased`).
    /// The audit events stay as they are (the chain cannot change): they keep the account's id,
    /// which then names nobody.
    ///
    /// - Parameter audit: the event recording the erasure, given what it removed; appended in the
    ///   same transaction.
    /// - Returns: what was removed; nil when no account has this id (nothing is written).
    public func eraseAccount(
        userID: String, audit: @escaping @Sendable (AccountErasureCounts) -> AuditEvent, now: Date = Date()
    ) async throws -> AccountErasureCounts? {
        let time = now.millisecondsSince1970
        return try await write { db in
            // PostgreSQL: the row is locked, so a login of the account waits and then finds it gone.
            guard let subject = try await ErasureSubject.read(userID: userID, in: db, locking: true) else { return nil }
            var counts = AccountErasureCounts()
            counts.auditAddresses = try await subject.deleteAuditAddresses(in: db)
            counts.mails = try await subject.deleteMails(in: db)
            counts.invitations = try await subject.deleteInvitations(in: db)
            counts.syncEntriesUnlinked = try await subject.unlinkSyncEntries(at: time, in: db)
            counts.contactsUnlinked = try await subject.unlinkContacts(in: db)
            func delete(_ table: String, _ column: String = "user_id") async throws -> Int {
                try await db.delete(from: table).where(SQLIdentifier(column), .equal, SQLBind(userID)).returning(SQLLiteral.all).all().count
            }
            counts.portalSessions = try await delete("portal_sessions")
            _ = try await delete("browser_sessions")
            // Revoked before they go, so the services that asked hear of it over the back channel.
            try await db.update("sessions").set("revoked_at", to: time).set("revoked_reason", to: "account_erased")
                .where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null).run()
            counts.sessions = try await delete("sessions")
            counts.devices = try await delete("devices")
            counts.passkeys = try await delete("passkeys")
            counts.activities = try await delete("activities")
            counts.expenseClaims = try await delete("expense_claims")
            counts.memberships = try await delete("memberships")
            counts.identities = try await delete("identities")
            _ = try await delete("bankid_orders")
            _ = try await delete("webauthn_challenges")
            // A record suspended while the account held it stays suspended, holding nobody's id.
            try await db.update("member_records").set("suspended_user_id", to: SQLLiteral.null).where("suspended_user_id", .equal, userID).run()
            _ = try await delete("users", "id")
            try await Self.append(audit(counts), in: db, keys: auditKeys)
            return counts
        }
    }

    /// Member records with this email (any case), ended ones too when asked: what an operator's
    /// `user find` shows.
    public func memberRecords(email: String, includingEnded: Bool) async throws -> [MemberRecord] {
        try await read { db in
            var query = db.select().column("*").from("member_records")
                .where(SQLFunction("lower", args: SQLColumn("email")), .equal, SQLBind(email.lowercased()))
            if !includingEnded { query = query.where("ended_at", .is, SQLLiteral.null) }
            return try await query.orderBy("created_at").all(as: MemberRecord.self)
        }
    }

    /// Member records with this phone number (E.164), ended ones too when asked.
    public func memberRecords(phone: String, includingEnded: Bool) async throws -> [MemberRecord] {
        try await read { db in
            var query = db.select().column("*").from("member_records").where("phone", .equal, phone)
            if !includingEnded { query = query.where("ended_at", .is, SQLLiteral.null) }
            return try await query.orderBy("created_at").all(as: MemberRecord.self)
        }
    }

    /// Deletes the member records whose membership ended before `cutoff` (PRIVACY.md: an ended
    /// record is kept for a while, so the administrators see who left and the member system may
    /// take the member back, then goes). A record that lasts is never touched.
    /// - Returns: how many were deleted.
    @discardableResult
    public func purgeEndedMemberRecords(before cutoff: Date) async throws -> Int {
        try await write { db in
            try await db.delete(from: "member_records").where("ended_at", .lessThan, cutoff.millisecondsSince1970)
                .returning("id").all().count
        }
    }
}

/// The account an erasure works on, and the ids and addresses that lead to its rows.
private struct ErasureSubject {
    let user: User
    let records: [MemberRecord]
    /// The account's and its records' email addresses, lowercased.
    let emails: [String]
    /// What its audit events name as their subject: the account, its sessions, devices, passkeys
    /// and provider accounts (`provider:subject`).
    let subjects: [(type: String, ids: [String])]

    var userID: String { user.id }

    static func read(userID: String, in db: any SQLDatabase, locking: Bool) async throws -> ErasureSubject? {
        let lock: SQLQueryString = locking && db.dialect.name == "postgresql" ? " FOR UPDATE" : ""
        guard let user = try await db.raw("SELECT * FROM users WHERE id = \(bind: userID)\(lock)").first(as: User.self) else { return nil }
        let held = try await db.select().column("member_record_id").from("memberships").where("user_id", .equal, userID)
            .where("member_record_id", .isNot, SQLLiteral.null).all().map { try $0.decode(column: "member_record_id", as: String.self) }
        var records: [MemberRecord] = []
        if !held.isEmpty {
            records = try await db.select().column("*").from("member_records").where("id", .in, Array(Set(held)).sorted())
                .orderBy("created_at").all(as: MemberRecord.self)
        }
        let emails = Set(([user.email] + records.map(\.email)).compactMap { $0?.lowercased() }).sorted()
        func ids(_ table: String) async throws -> [String] {
            try await db.select().column("id").from(table).where("user_id", .equal, userID).all().map { try $0.decode(column: "id", as: String.self) }
        }
        let identities = try await db.select().column("provider").column("subject").from("identities").where("user_id", .equal, userID).all()
            .map { row in
                let provider = try row.decode(column: "provider", as: String.self)
                return provider + ":" + (try row.decode(column: "subject", as: String.self))
            }
        let sessions = try await ids("sessions")
        let devices = try await ids("devices")
        let passkeys = try await ids("passkeys")
        let subjects: [(type: String, ids: [String])] = [
            ("user", [userID]), ("session", sessions), ("device", devices), ("passkey", passkeys), ("identity", identities),
        ]
        return ErasureSubject(user: user, records: records, emails: emails, subjects: subjects)
    }

    /// The audit events (with a client address kept) that the account did or that are about it.
    func auditAddressEvents(in db: any SQLDatabase) async throws -> Set<String> {
        var events = Set<String>()
        for (type, ids) in subjects {
            for batch in ids.batches(of: PortvaktStore.batchSize) {
                let rows = try await db.select().column(SQLColumn("event_id", table: "audit_addresses")).from("audit_addresses")
                    .join("audit_events", on: SQLColumn("id", table: "audit_events"), .equal, SQLColumn("event_id", table: "audit_addresses"))
                    .where { group in
                        group.where(SQLColumn("actor_user_id", table: "audit_events"), .equal, SQLBind(userID)).orWhere { subject in
                            subject.where(SQLColumn("subject_type", table: "audit_events"), .equal, SQLBind(type))
                                .where(SQLColumn("subject_id", table: "audit_events"), .in, SQLBind.group(batch))
                        }
                    }
                    .all()
                for row in rows { events.insert(try row.decode(column: "event_id", as: String.self)) }
            }
        }
        return events
    }

    /// Invitations bound to the account, or to one of its records (one made before the account
    /// existed would otherwise make a new account of the record).
    private func invitations(_ query: SQLPredicateGroupBuilder) -> SQLPredicateGroupBuilder {
        let held = records.map(\.id)
        return held.isEmpty ? query.where("user_id", .equal, userID)
            : query.where("user_id", .equal, userID).orWhere("member_record_id", .in, held)
    }

    /// The sources of entries that name the record's holder but hold another login's number (a
    /// refused phone match): every other entry of the account is its own login's, with its number.
    private static let phoneMatch = "%-phone-match"

    func counts(in db: any SQLDatabase) async throws -> AccountErasureCounts {
        func count(_ table: String, _ filter: (SQLSelectBuilder) -> SQLSelectBuilder) async throws -> Int {
            try await filter(db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count").from(table))
                .first()?.decode(column: "count", as: Int.self) ?? 0
        }
        func owned(_ table: String) async throws -> Int {
            try await count(table) { $0.where("user_id", .equal, userID) }
        }
        var counts = AccountErasureCounts()
        counts.identities = try await owned("identities")
        counts.memberships = try await owned("memberships")
        counts.sessions = try await owned("sessions")
        counts.portalSessions = try await owned("portal_sessions")
        counts.devices = try await owned("devices")
        counts.passkeys = try await owned("passkeys")
        counts.activities = try await owned("activities")
        counts.expenseClaims = try await owned("expense_claims")
        counts.contactsUnlinked = try await count("contacts") { $0.where { $0.where("assigned_user_id", .equal, userID).orWhere("created_by", .equal, userID) } }
        counts.syncEntriesUnlinked = try await owned("member_sync_log")
        if !emails.isEmpty {
            counts.mails = try await count("mail_outbox") { $0.where(SQLFunction("lower", args: SQLColumn("recipient")), .in, SQLBind.group(emails)) }
        }
        counts.invitations = try await count("password_invites") { $0.where { invitations($0) } }
        counts.auditAddresses = try await auditAddressEvents(in: db).count
        return counts
    }

    func deleteAuditAddresses(in db: any SQLDatabase) async throws -> Int {
        let events = try await auditAddressEvents(in: db).sorted()
        for batch in events.batches(of: PortvaktStore.batchSize) {
            try await db.delete(from: "audit_addresses").where("event_id", .in, batch).run()
        }
        return events.count
    }

    func deleteMails(in db: any SQLDatabase) async throws -> Int {
        guard !emails.isEmpty else { return 0 }
        return try await db.delete(from: "mail_outbox").where(SQLFunction("lower", args: SQLColumn("recipient")), .in, SQLBind.group(emails))
            .returning("id").all().count
    }

    func deleteInvitations(in db: any SQLDatabase) async throws -> Int {
        try await db.delete(from: "password_invites").where { invitations($0) }.returning("token_hash").all().count
    }

    /// The entries stay the organisation's; the number the account's own login brought goes, and
    /// an open conflict of it is closed (nobody can take a number whose owner is erased).
    ///
    /// A login of the account that matched someone else's record by phone only left an entry
    /// under that record's holder with the account's number: found through the trail's
    /// `login.link_refused` events, whose subject is one of the account's provider accounts and
    /// whose `entry` names the entry; its number goes too, and it is closed.
    func unlinkSyncEntries(at time: Int64, in db: any SQLDatabase) async throws -> Int {
        let ownLogins = try await refusedLinkEntries(in: db)
        func ownNumber(_ query: SQLPredicateGroupBuilder) -> SQLPredicateGroupBuilder {
            let own = query.where { $0.where("user_id", .equal, userID).where("source", .notLike, Self.phoneMatch) }
            return ownLogins.isEmpty ? own : own.orWhere("id", .in, ownLogins)
        }
        try await db.update("member_sync_log").set("status", to: "resolved").set("resolution", to: "account_erased").set("resolved_at", to: time)
            .where("status", .equal, "open").where { ownNumber($0) }.run()
        try await db.update("member_sync_log").set("login_personnummer_sealed", to: SQLLiteral.null).set("login_personnummer_key_id", to: SQLLiteral.null)
            .where { ownNumber($0) }.run()
        return try await db.update("member_sync_log").set("user_id", to: SQLLiteral.null).where("user_id", .equal, userID)
            .returning("id").all().count
    }

    /// The entries the account's refused phone-match logins left (``IdentityLinker``).
    private func refusedLinkEntries(in db: any SQLDatabase) async throws -> [String] {
        let identities = subjects.first { $0.type == "identity" }?.ids ?? []
        var entries = Set<String>()
        for batch in identities.batches(of: PortvaktStore.batchSize) {
            let rows = try await db.select().column("details").from("audit_events")
                .where("action", .equal, AuditAction.loginLinkRefused.rawValue).where("subject_type", .equal, "identity")
                .where("subject_id", .in, batch).all()
            for row in rows {
                let details = try JSONDecoder().decode([String: String].self, from: Data(try row.decode(column: "details", as: String.self).utf8))
                if let entry = details["entry"] { entries.insert(entry) }
            }
        }
        return entries.sorted()
    }

    func unlinkContacts(in db: any SQLDatabase) async throws -> Int {
        let assigned = try await db.update("contacts").set("assigned_user_id", to: SQLLiteral.null).where("assigned_user_id", .equal, userID)
            .returning("id").all().map { try $0.decode(column: "id", as: String.self) }
        let created = try await db.update("contacts").set("created_by", to: SQLLiteral.null).where("created_by", .equal, userID)
            .returning("id").all().map { try $0.decode(column: "id", as: String.self) }
        return Set(assigned + created).count
    }
}
