import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    public func attention(organisationID: String) async throws -> OrganisationAttention {
        try await read { db in
            func count(_ query: SQLSelectBuilder) async throws -> Int {
                try await query.first()?.decode(column: "count", as: Int.self) ?? 0
            }
            let all = SQLFunction("COUNT", args: SQLLiteral.all)
            let conflicts = try await count(db.select().column(all, as: "count").from("member_sync_log")
                .where("organisation_id", .equal, organisationID).where("outcome", .equal, "conflict").where("status", .equal, "open"))
            let dead = try await count(db.select().column(all, as: "count").from("member_outbox")
                .where("organisation_id", .equal, organisationID).where("status", .equal, OutboxStatus.dead.rawValue))
            // A membership that ended needs nothing more from anyone (its record goes after the retention period).
            let missing = try await count(db.select().column(all, as: "count").from("member_records")
                .where("organisation_id", .equal, organisationID).where("personnummer_index", .is, SQLLiteral.null)
                .where("ended_at", .is, SQLLiteral.null))
            let withDevices = try await count(db.select().column(SQLFunction("COUNT", args: SQLDistinct(SQLColumn("user_id", table: "memberships"))), as: "count")
                .from("memberships")
                .join("devices", on: SQLColumn("user_id", table: "devices"), .equal, SQLColumn("user_id", table: "memberships"))
                .where(SQLColumn("organisation_id", table: "memberships"), .equal, SQLBind(organisationID))
                .where(SQLColumn("revoked_at", table: "devices"), .is, SQLLiteral.null))
            return OrganisationAttention(openConflicts: conflicts, deadDeliveries: dead, membersWithoutPersonnummer: missing, membersWithDevices: withDevices)
        }
    }

    /// Each member record of the organisation that an account holds → that account's id.
    public func recordHolders(organisationID: String) async throws -> [String: String] {
        Dictionary(
            try await memberships(organisationID: organisationID).compactMap { membership in membership.memberRecordId.map { ($0, membership.userId) } },
            uniquingKeysWith: { first, _ in first }
        )
    }

    /// The users of an organisation who have an active biometric device.
    public func usersWithDevices(organisationID: String) async throws -> Set<String> {
        try await read { db in
            Set(try await db.select().distinct().column(SQLColumn("user_id", table: "memberships")).from("memberships")
                .join("devices", on: SQLColumn("user_id", table: "devices"), .equal, SQLColumn("user_id", table: "memberships"))
                .where(SQLColumn("organisation_id", table: "memberships"), .equal, SQLBind(organisationID))
                .where(SQLColumn("revoked_at", table: "devices"), .is, SQLLiteral.null)
                .all().map { try $0.decode(column: "user_id", as: String.self) })
        }
    }

    /// Each user's linked provider accounts (`bankid`, `vipps`, `password`), for these users.
    public func identityProviders(userIDs: [String]) async throws -> [String: [String]] {
        guard !userIDs.isEmpty else { return [:] }
        return try await read { db in
            var providers: [String: [String]] = [:]
            for row in try await db.select().column("user_id").column("provider").from("identities").where("user_id", .in, userIDs).orderBy("provider").all() {
                providers[try row.decode(column: "user_id", as: String.self), default: []].append(try row.decode(column: "provider", as: String.self))
            }
            // A passkey signs in too, so it is one of the account's sign-in methods (a merge moves it).
            for row in try await db.select().distinct().column("user_id").from("passkeys").where("user_id", .in, userIDs).all() {
                providers[try row.decode(column: "user_id", as: String.self), default: []].append(IdentityProvider.passkey.rawValue)
            }
            return providers
        }
    }

    /// Everything a merge of `userID` into another account would move.
    public func holdings(userID: String) async throws -> AccountHoldings {
        try await read { db in
            func count(_ table: String, _ column: String, extra: ((SQLSelectBuilder) -> SQLSelectBuilder)? = nil) async throws -> Int {
                var query = db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count").from(table).where(SQLIdentifier(column), .equal, SQLBind(userID))
                if let extra { query = extra(query) }
                return try await query.first()?.decode(column: "count", as: Int.self) ?? 0
            }
            return AccountHoldings(
                providers: try await Self.signInMethods(userID: userID, on: db),
                memberships: try await db.select().column("*").from("memberships").where("user_id", .equal, userID).all(as: Membership.self),
                devices: try await count("devices", "user_id") { $0.where("revoked_at", .is, SQLLiteral.null) },
                activities: try await count("activities", "user_id"),
                claims: try await count("expense_claims", "user_id"),
                contacts: try await count("contacts", "assigned_user_id"),
                syncEntries: try await count("member_sync_log", "user_id")
            )
        }
    }

    /// Puts a dead or waiting message back at the head of the queue, due now, with a fresh set
    /// of attempts; its id (the receiver's idempotency key) and payload stay. A message a worker
    /// is delivering at this moment is left to it.
    /// - Returns: the message as it is now; nil when it is not the organisation's, delivered, or being delivered.
    public func retryOutboxMessage(id: String, organisationID: String, now: Date = Date()) async throws -> OutboxMessage? {
        try await write { db in
            try await db.update("member_outbox").set("status", to: OutboxStatus.pending.rawValue).set("attempts", to: 0)
                .set("next_attempt_at", to: now.millisecondsSince1970)
                .where("id", .equal, id).where("organisation_id", .equal, organisationID)
                .where { $0.where("status", .equal, OutboxStatus.dead.rawValue).orWhere { $0.where("status", .equal, OutboxStatus.pending.rawValue).where("claim_id", .is, SQLLiteral.null) } }
                .returning(SQLLiteral.all).first(as: OutboxMessage.self)
        }
    }

    public func outboxMessage(id: String) async throws -> OutboxMessage? {
        try await read { db in try await db.select().column("*").from("member_outbox").where("id", .equal, id).first(as: OutboxMessage.self) }
    }

    /// A page of the organisation's sync log, newest first, with filters; and how many match.
    public func memberSyncEntries(
        organisationID: String, outcome: MemberSyncOutcome?, status: String?, from: Date?, to: Date?, offset: Int, limit: Int
    ) async throws -> (entries: [MemberSyncEntry], total: Int) {
        try await read { db in
            func filtered(_ query: SQLSelectBuilder) -> SQLSelectBuilder {
                var query = query.where("organisation_id", .equal, organisationID)
                if let outcome { query = query.where("outcome", .equal, outcome.rawValue) }
                if let status { query = query.where("status", .equal, status) }
                if let from { query = query.where("occurred_at", .greaterThanOrEqual, from.millisecondsSince1970) }
                if let to { query = query.where("occurred_at", .lessThan, to.millisecondsSince1970) }
                return query
            }
            let total = try await filtered(db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count").from("member_sync_log"))
                .first()?.decode(column: "count", as: Int.self) ?? 0
            let entries = try await filtered(db.select().column("*").from("member_sync_log"))
                .orderBy("occurred_at", .descending).orderBy("id").offset(offset).limit(limit).all(as: MemberSyncEntry.self)
            return (entries, total)
        }
    }

    /// An organisation's audit events, newest first: optionally one action, and one member
    /// (events about their record or account, or that they did).
    public func auditEvents(
        organisationID: String, action: String? = nil, member: (recordID: String, userID: String?)? = nil, offset: Int = 0, limit: Int = 50
    ) async throws -> (events: [ChainedAuditEvent], total: Int) {
        try await read { db in
            func filtered(_ query: SQLSelectBuilder) -> SQLSelectBuilder {
                var query = query.where("organisation_id", .equal, organisationID)
                if let action { query = query.where("action", .equal, action) }
                if let member {
                    query = query.where { group in
                        var group = group.where("subject_id", .equal, member.recordID)
                        if let user = member.userID { group = group.orWhere("subject_id", .equal, user).orWhere("actor_user_id", .equal, user) }
                        return group
                    }
                }
                return query
            }
            let total = try await filtered(db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count").from("audit_events"))
                .first()?.decode(column: "count", as: Int.self) ?? 0
            let rows = try await Self.auditRows(filtered(Self.selectAuditEvents(db))
                .orderBy("occurred_at", .descending).orderBy("sequence", .descending).offset(offset).limit(limit))
            return (rows.map { ChainedAuditEvent(sequence: $0.sequence, event: $0.event) }, total)
        }
    }

    /// An organisation's audit events from `from` up to (not including) `to`, oldest first, at most `limit`.
    public func auditEvents(organisationID: String, from: Date, to: Date, limit: Int) async throws -> [ChainedAuditEvent] {
        try await read { db in
            try await Self.auditRows(Self.selectAuditEvents(db).where("organisation_id", .equal, organisationID)
                .where("occurred_at", .greaterThanOrEqual, from.millisecondsSince1970).where("occurred_at", .lessThan, to.millisecondsSince1970)
                .orderBy("occurred_at").orderBy("sequence").limit(limit))
                .map { ChainedAuditEvent(sequence: $0.sequence, event: $0.event) }
        }
    }

    /// The distinct actions in an organisation's trail, for the filter.
    public func auditActions(organisationID: String) async throws -> [String] {
        try await read { db in
            try await db.select().distinct().column("action").from("audit_events").where("organisation_id", .equal, organisationID)
                .orderBy("action").all().map { try $0.decode(column: "action", as: String.self) }
        }
    }

    /// Makes an invitation, with the email that carries its link and its audit event, in one
    /// transaction; the record's earlier unused invitations stop working.
    public func insertPasswordInvite(_ invite: PasswordInvite, mail: MailOutboxMessage, audit: AuditEvent) async throws {
        try await write { db in
            try await db.update("password_invites").set("used_at", to: invite.createdAt)
                .where("member_record_id", .equal, invite.memberRecordId).where("used_at", .is, SQLLiteral.null).run()
            try await db.insert(into: "password_invites").row(invite).run()
            try await Self.insertMail(mail, in: db)
            try await Self.append(audit, in: db, keys: auditKeys)
        }
    }

    /// The invitation behind a link, while it is unused and unexpired.
    public func passwordInvite(tokenHash: Data, now: Date = Date()) async throws -> PasswordInvite? {
        try await read { db in
            try await db.select().column("*").from("password_invites").where("token_hash", .equal, tokenHash)
                .where("used_at", .is, SQLLiteral.null).where("expires_at", .greaterThan, now.millisecondsSince1970)
                .first(as: PasswordInvite.self)
        }
    }

    /// Uses an invitation: marks it used, once. Nil when it was used, expired or unknown.
    public func takePasswordInvite(tokenHash: Data, now: Date = Date()) async throws -> PasswordInvite? {
        try await write { db in
            try await db.update("password_invites").set("used_at", to: now.millisecondsSince1970)
                .where("token_hash", .equal, tokenHash).where("used_at", .is, SQLLiteral.null)
                .where("expires_at", .greaterThan, now.millisecondsSince1970)
                .returning(SQLLiteral.all).first(as: PasswordInvite.self)
        }
    }

    /// What a new password ends: the keys the old one enrolled, the browsers' sign-ins and every
    /// session (whoever knew the old password is out). Returns how many sessions ended.
    static func endSessionsForNewPassword(userID: String, at time: Int64, in db: any SQLDatabase) async throws -> Int {
        try await revokePasswordLevelDevices(userID: userID, at: time, in: db)
        // The browsers' sign-ins first, so none answers a client with a session this misses.
        try await deleteBrowserSessions(userIDs: [userID], in: db)
        return try await db.update("sessions").set("revoked_at", to: time).set("revoked_reason", to: "password_set")
            .where("user_id", .equal, userID).where("revoked_at", .is, SQLLiteral.null)
            .returning("id").all().count
    }

    /// Makes a taken invitation usable again (setting the password failed after it was taken).
    public func releasePasswordInvite(tokenHash: Data) async throws {
        try await write { db in
            try await db.update("password_invites").set("used_at", to: SQLLiteral.null).where("token_hash", .equal, tokenHash).run()
        }
    }

    /// Sets the password of an account, ends every session it has and the device keys the old
    /// password enrolled, and queues the notice, in one transaction.
    /// - Returns: how many sessions ended.
    public func setPassword(userID: String, passwordHash: String, notice: MailOutboxMessage?, audit: AuditEvent, now: Date = Date()) async throws -> Int {
        let time = now.millisecondsSince1970
        return try await write { db in
            try await db.update("users").set("password_hash", to: passwordHash).where("id", .equal, userID).run()
            let ended = try await Self.endSessionsForNewPassword(userID: userID, at: time, in: db)
            if let notice { try await Self.insertMail(notice, in: db) }
            try await Self.append(audit, in: db, keys: auditKeys)
            return ended
        }
    }
}
