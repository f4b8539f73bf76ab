import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// Writes the member directory's additions and changes in one transaction, with their audit
    /// events, or nothing.
    ///
    /// A change is written only while the record's version is the one it was planned on; then its
    /// version goes up by one. The user names and personnummer the changes move are freed first,
    /// so a file may swap them between two records. A change that ends a membership (active →
    /// not active) ends the roles resting on the record at once (``EndedAccess``); a change of
    /// role moves them; a lasting record with a personnummer that an account carries, and that
    /// no account holds, becomes that account's (as that person's next login would link it).
    /// Additions go in a few hundred rows a statement.
    ///
    /// - Parameters:
    ///   - reason: the `revoked_reason` of the sessions that end.
    ///   - audit: the events to append, given what the write did; called inside the transaction.
    /// - Returns: the changed records as written, in the order of `changes`, and what the write
    ///   did to accounts.
    /// - Throws: ``StoreError/notFound(_:)`` (`member_records`) when a changed record is gone or
    ///   at another version (nothing is written); ``StoreError/duplicate(_:)`` when an external
    ///   reference, user name or personnummer is another record's in the organisation.
    @discardableResult
    public func writeMemberRecords(
        adding additions: [MemberRecord], changing changes: [MemberRecordChange], reason: String,
        audit: @escaping @Sendable (MemberRecordWriteEffects) -> [AuditEvent], now: Date = Date()
    ) async throws -> (written: [MemberRecord], effects: MemberRecordWriteEffects) {
        let time = now.millisecondsSince1970
        return try await write { db in
            for batch in changes.map(\.before.id).batches(of: Self.batchSize) {
                try await db.update("member_records").set("user_name", to: SQLLiteral.null).where("id", .in, batch).run()
            }
            let renumbered = changes.filter { $0.personnummer != .keep }.map(\.before.id)
            for batch in renumbered.batches(of: Self.batchSize) {
                try await db.update("member_records").set("personnummer_index", to: SQLLiteral.null).where("id", .in, batch).run()
            }
            var written: [MemberRecord] = []
            written.reserveCapacity(changes.count)
            for change in changes {
                guard let record = try await Self.update(change, at: time, in: db).returning(SQLLiteral.all).first(as: MemberRecord.self) else {
                    throw StoreError.notFound("member_records")
                }
                written.append(record)
            }
            for batch in additions.batches(of: Self.batchSize) {
                try await db.insert(into: "member_records")
                    .models(batch, keyEncodingStrategy: SnakeCaseColumns.encoding, nilEncodingStrategy: .asNil).run()
            }
            var effects = MemberRecordWriteEffects()
            effects.ended = try await Self.endMemberships(recordIDs: changes.filter(\.ends).map(\.before.id), reason: reason, at: time, in: db)
            let numbered = changes.filter { if case .set = $0.personnummer { $0.values.active } else { false } }.map(\.before.id)
            effects.detached = try await Self.disagreeingHolders(recordIDs: numbered, in: db)
            if !effects.detached.isEmpty {
                effects.ended += try await Self.detach(effects.detached.map { ($0.userID, $0.recordID) }, reason: reason, at: time, in: db)
                for detached in effects.detached {
                    try await db.insert(into: "member_sync_log").row(MemberSyncEntry(
                        occurredAt: now, organisationID: detached.organisationID, memberRecordID: detached.recordID, userID: detached.userID,
                        source: MemberSyncEntry.directoryDetachedSource, outcome: .conflict
                    )).run()
                }
            }
            effects.promoted = try await Self.moveRoles(changes.filter { $0.values.active && $0.values.role != $0.before.role }, in: db)
            let lasting = changes.filter(\.values.active).map(\.before.id) + additions.filter(\.isActive).map(\.id)
            effects.linked = try await Self.linkHolders(recordIDs: lasting, at: time, in: db)
            for event in audit(effects) { try await Self.append(event, in: db, keys: auditKeys) }
            return (written, effects)
        }
    }

    /// Deletes a record (SCIM DELETE) while it is at the version it was read at: first the roles
    /// resting on it end as for a change to not active, then the row goes; with the audit events.
    /// - Returns: what the deletion did to accounts; nil when the record is gone or at another
    ///   version (nothing is written).
    public func deleteMemberRecord(
        _ before: MemberRecord, reason: String, audit: @escaping @Sendable (MemberRecordWriteEffects) -> [AuditEvent], now: Date = Date()
    ) async throws -> MemberRecordWriteEffects? {
        let time = now.millisecondsSince1970
        return try await write { db in
            // The conditional update locks the row; the memberships end before the row goes,
            // while they still point at it.
            guard try await db.update("member_records").set("updated_at", to: time)
                .where("id", .equal, before.id).where("organisation_id", .equal, before.organisationId).where("version", .equal, before.version)
                .returning("id").first() != nil
            else { return nil }
            var effects = MemberRecordWriteEffects()
            effects.ended = try await Self.endMemberships(recordIDs: [before.id], reason: reason, at: time, in: db)
            try await db.delete(from: "member_records").where("id", .equal, before.id).run()
            for event in audit(effects) { try await Self.append(event, in: db, keys: auditKeys) }
            return effects
        }
    }

    /// Ends the memberships resting on these records, now, with the audit events, in one
    /// transaction (an administrator's suspension of one membership, for instance); the records
    /// stay as they are.
    public func endMemberships(
        recordIDs: [String], reason: String, audit: @escaping @Sendable ([EndedAccess]) -> [AuditEvent], now: Date = Date()
    ) async throws -> [EndedAccess] {
        try await write { db in
            let ended = try await Self.endMemberships(recordIDs: recordIDs, reason: reason, at: now.millisecondsSince1970, in: db)
            for event in audit(ended) { try await Self.append(event, in: db, keys: auditKeys) }
            return ended
        }
    }

    /// A page of the organisation's records, oldest first (ended ones too), and how many match.
    public func memberRecords(
        organisationID: String, filter: MemberRecordFilter?, offset: Int, limit: Int
    ) async throws -> (total: Int, records: [MemberRecord]) {
        try await read { db in
            func filtered(_ query: SQLSelectBuilder) -> SQLSelectBuilder {
                let query = query.where("organisation_id", .equal, organisationID)
                func lower(_ expression: any SQLExpression) -> any SQLExpression { SQLFunction("lower", args: expression) }
                guard let filter else { return query }
                return switch filter {
                case .userName(let name): query.where(lower(SQLColumn("user_name")), .equal, lower(SQLBind(name)))
                case .externalRef(let reference): query.where("external_ref", .equal, reference)
                case .email(let email): query.where(lower(SQLColumn("email")), .equal, lower(SQLBind(email)))
                }
            }
            let total = try await filtered(db.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count").from("member_records"))
                .first()?.decode(column: "count", as: Int.self) ?? 0
            guard limit > 0, offset < total else { return (total, []) }
            let records = try await filtered(db.select().column("*").from("member_records"))
                .orderBy("created_at").orderBy("id").offset(max(offset, 0)).limit(limit).all(as: MemberRecord.self)
            return (total, records)
        }
    }
}

extension PortvaktStore {
    /// Rows a statement: a few hundred keeps every statement's binds far below both engines' limits.
    static let batchSize = 400

    /// The conditional UPDATE of one change: every attribute, the version one up.
    private static func update(_ change: MemberRecordChange, at time: Int64, in db: any SQLDatabase) -> SQLUpdateBuilder {
        func value(_ text: String?) -> any SQLExpression { text.map { SQLBind($0) as any SQLExpression } ?? SQLLiteral.null }
        let values = change.values
        var update = db.update("member_records")
            .set("external_ref", to: value(values.externalRef)).set("user_name", to: value(values.userName))
            .set("given_name", to: value(values.givenName)).set("family_name", to: value(values.familyName))
            .set("email", to: value(values.email)).set("phone", to: value(values.phone)).set("role", to: SQLBind(values.role.rawValue))
            .set("member_number", to: value(values.memberNumber))
            .set("ended_at", to: values.active ? SQLLiteral.null as any SQLExpression : SQLBind(change.before.endedAt ?? time))
            .set("updated_at", to: SQLBind(time))
            .set("version", to: SQLBinaryExpression(SQLColumn("version"), .add, SQLLiteral.numeric("1")))
        if let fullName = values.fullName { update = update.set("full_name", to: SQLBind(fullName)) }
        switch change.personnummer {
        case .keep:
            break
        case .remove:
            update = update.set("personnummer_sealed", to: SQLLiteral.null).set("personnummer_key_id", to: SQLLiteral.null)
                .set("personnummer_index", to: SQLLiteral.null)
        case .set(let number):
            update = update.set("personnummer_sealed", to: SQLBind(number.sealed.combined)).set("personnummer_key_id", to: SQLBind(number.sealed.keyID))
                .set("personnummer_index", to: SQLBind(number.index))
        }
        return update.where("id", .equal, change.before.id).where("organisation_id", .equal, change.before.organisationId)
            .where("version", .equal, change.before.version)
    }

    /// Ends, in the caller's transaction, the memberships resting on these records. An account
    /// left with none anywhere loses every way in at once (``endAccess(lost:reason:at:in:)``).
    static func endMemberships(recordIDs: [String], reason: String, at time: Int64, in db: any SQLDatabase) async throws -> [EndedAccess] {
        var lost: [String: Set<String>] = [:]
        for batch in recordIDs.batches(of: batchSize) {
            for row in try await db.delete(from: "memberships").where("member_record_id", .in, batch).returning("user_id", "organisation_id").all() {
                lost[try row.decode(column: "user_id", as: String.self), default: []].insert(try row.decode(column: "organisation_id", as: String.self))
            }
        }
        return try await endAccess(lost: lost, reason: reason, at: time, in: db)
    }

    /// Ends, in the caller's transaction, each account's memberships resting on its record (and
    /// no one else's), as ``endMemberships(recordIDs:reason:at:in:)`` does.
    static func detach(_ holders: [(userID: String, recordID: String)], reason: String, at time: Int64, in db: any SQLDatabase) async throws -> [EndedAccess] {
        var lost: [String: Set<String>] = [:]
        for holder in holders {
            for row in try await db.delete(from: "memberships").where("member_record_id", .equal, holder.recordID).where("user_id", .equal, holder.userID)
                .returning("organisation_id").all() {
                lost[holder.userID, default: []].insert(try row.decode(column: "organisation_id", as: String.self))
            }
        }
        return try await endAccess(lost: lost, reason: reason, at: time, in: db)
    }

    /// The accounts holding these records whose verified number is not the record's (or who have
    /// none): ``LinkingRule/holderAgrees(holderIndex:recordIndex:)`` in SQL.
    private static func disagreeingHolders(recordIDs: [String], in db: any SQLDatabase) async throws -> [DetachedHolder] {
        var holders: [DetachedHolder] = []
        for batch in recordIDs.batches(of: batchSize) {
            for row in try await db.raw("""
                SELECT DISTINCT memberships.user_id, memberships.member_record_id, member_records.organisation_id \
                FROM memberships JOIN member_records ON member_records.id = memberships.member_record_id \
                JOIN users ON users.id = memberships.user_id \
                WHERE memberships.member_record_id IN (\(binds: batch)) \
                AND (users.personnummer_index IS NULL OR users.personnummer_index <> member_records.personnummer_index)
                """).all() {
                holders.append(DetachedHolder(
                    userID: try row.decode(column: "user_id", as: String.self), recordID: try row.decode(column: "member_record_id", as: String.self),
                    organisationID: try row.decode(column: "organisation_id", as: String.self)
                ))
            }
        }
        return holders
    }

    /// What losing these memberships (account → organisations) leaves each account: one left with
    /// none anywhere loses every way in at once: its sessions are revoked (`reason`; their
    /// refresh tokens stop working), its portal sessions deleted, its devices revoked and its
    /// passkeys removed.
    private static func endAccess(lost: [String: Set<String>], reason: String, at time: Int64, in db: any SQLDatabase) async throws -> [EndedAccess] {
        let users = lost.keys.sorted()
        var keeping = Set<String>()
        for batch in users.batches(of: batchSize) {
            for row in try await db.select().distinct().column("user_id").from("memberships").where("user_id", .in, batch).all() {
                keeping.insert(try row.decode(column: "user_id", as: String.self))
            }
        }
        var sessions: [String: Int] = [:], devices: [String: Int] = [:], passkeys: [String: Int] = [:]
        func count(_ rows: [any SQLRow], into counts: inout [String: Int]) throws {
            for row in rows { counts[try row.decode(column: "user_id", as: String.self), default: 0] += 1 }
        }
        for batch in users.filter({ !keeping.contains($0) }).batches(of: batchSize) {
            try await Self.deleteBrowserSessions(userIDs: batch, in: db)
            let endedSessions = try await db.update("sessions").set("revoked_at", to: time).set("revoked_reason", to: reason)
                .where("user_id", .in, batch).where("revoked_at", .is, SQLLiteral.null).returning("user_id").all()
            try count(endedSessions, into: &sessions)
            try await db.delete(from: "portal_sessions").where("user_id", .in, batch).run()
            let revokedDevices = try await db.update("devices").set("revoked_at", to: time)
                .where("user_id", .in, batch).where("revoked_at", .is, SQLLiteral.null).returning("user_id").all()
            try count(revokedDevices, into: &devices)
            let removedPasskeys = try await db.delete(from: "passkeys").where("user_id", .in, batch).returning("user_id").all()
            try count(removedPasskeys, into: &passkeys)
        }
        return users.map { user in
            EndedAccess(
                userID: user, organisationIDs: lost[user, default: []].sorted(), leftWithNone: !keeping.contains(user),
                sessions: sessions[user] ?? 0, devices: devices[user] ?? 0, passkeys: passkeys[user] ?? 0
            )
        }
    }

    /// Moves the roles resting on these records to each record's new role (each record keeps its
    /// holder, whatever other records the holder has).
    /// - Returns: the accounts now holding a record at a role above peer mentor, which they are told of.
    private static func moveRoles(_ changes: [MemberRecordChange], in db: any SQLDatabase) async throws -> [(userID: String, recordID: String)] {
        var promoted: [(userID: String, recordID: String)] = []
        for batch in changes.batches(of: batchSize) {
            let roles = Dictionary(batch.map { ($0.before.id, $0.values.role) }, uniquingKeysWith: { _, last in last })
            let moved = try await db.delete(from: "memberships").where("member_record_id", .in, batch.map(\.before.id))
                .returning(SQLLiteral.all).all(as: Membership.self)
            guard !moved.isEmpty else { continue }
            let insert = db.insert(into: "memberships").columns("user_id", "organisation_id", "role", "member_record_id", "created_at")
            for membership in moved {
                guard let record = membership.memberRecordId, let role = roles[record] else { continue }
                insert.values(
                    SQLBind(membership.userId), SQLBind(membership.organisationId), SQLBind(role.rawValue), SQLBind(record),
                    SQLBind(membership.createdAt)
                )
            }
            for row in try await insert.returning("user_id", "member_record_id", "role").all() {
                guard try row.decode(column: "role", as: String.self) != Role.peerMentor.rawValue else { continue }
                promoted.append((try row.decode(column: "user_id", as: String.self), try row.decode(column: "member_record_id", as: String.self)))
            }
        }
        return promoted
    }

    /// Gives each lasting record that no account holds to the account carrying its personnummer,
    /// as that person's login would (IdentityLinker: "a user with the same personnummer").
    private static func linkHolders(recordIDs: [String], at time: Int64, in db: any SQLDatabase) async throws -> [(userID: String, recordID: String)] {
        var linked: [(userID: String, recordID: String)] = []
        for batch in recordIDs.batches(of: batchSize) {
            // SQLite reads the upsert of an INSERT … SELECT unambiguously only after a WHERE: it has one.
            let rows = try await db.raw("""
                INSERT INTO memberships (user_id, organisation_id, role, member_record_id, created_at) \
                SELECT users.id, member_records.organisation_id, member_records.role, member_records.id, CAST(\(bind: time) AS BIGINT) \
                FROM member_records JOIN users ON users.personnummer_index = member_records.personnummer_index \
                WHERE member_records.id IN (\(binds: batch)) AND member_records.ended_at IS NULL AND member_records.suspended_at IS NULL \
                AND NOT EXISTS (SELECT 1 FROM memberships held WHERE held.member_record_id = member_records.id) \
                ON CONFLICT DO NOTHING RETURNING user_id, member_record_id
                """).all()
            for row in rows {
                let userID = try row.decode(column: "user_id", as: String.self)
                linked.append((userID: userID, recordID: try row.decode(column: "member_record_id", as: String.self)))
            }
        }
        return linked
    }
}

extension Array {
    /// The elements in consecutive arrays of at most `size`.
    func batches(of size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
