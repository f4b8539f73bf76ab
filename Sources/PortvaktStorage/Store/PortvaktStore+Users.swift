import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// - Throws: ``StoreError/duplicate(_:)`` when the email or personnummer belongs to another user.
    public func createUser(
        displayName: String,
        email: String? = nil,
        passwordHash: String? = nil,
        personnummer seal: ((_ userID: String) throws -> ProtectedPersonnummer)? = nil,
        now: Date = Date()
    ) async throws -> User {
        let id = newID()
        let protected = try seal?(id)
        let user = User(
            id: id, displayName: displayName, email: email?.lowercased(), passwordHash: passwordHash,
            personnummerSealed: protected.map { $0.sealed.combined }, personnummerKeyId: protected?.sealed.keyID,
            personnummerIndex: protected?.index, createdAt: now.millisecondsSince1970, disabledAt: nil
        )
        try await write { db in try await db.insert(into: "users").row(user).run() }
        return user
    }

    public func user(id: String) async throws -> User? {
        // Written out: SQLKit's builders cost more to serialize than this takes to run.
        try await read { db in try await db.raw("SELECT * FROM users WHERE id = \(bind: id)").first(as: User.self) }
    }

    /// The user (nil when unknown) and the latest time any of `throttleKeys` is blocked until,
    /// when later than `now`, in one read: a device assertion asks both.
    public func user(id: String, blockedUntilFor throttleKeys: [String], now: Date = Date()) async throws -> (user: User?, blockedUntil: Date?) {
        try await row(of: "users", id: id, as: User.self, blockedUntilFor: throttleKeys, now: now)
    }

    public func user(personnummerIndex index: String) async throws -> User? {
        try await read { db in
            try await db.select().column("*").from("users").where("personnummer_index", .equal, index).first(as: User.self)
        }
    }

    public func user(email: String) async throws -> User? {
        try await read { db in
            try await db.select().column("*").from("users").where("email", .equal, email.lowercased()).first(as: User.self)
        }
    }

    /// Links a provider account to a user.
    /// - Throws: ``StoreError/duplicate(_:)`` when the (provider, subject) pair is linked already.
    public func linkIdentity(userID: String, provider: IdentityProvider, subject: String, now: Date = Date()) async throws -> Identity {
        let identity = Identity(
            id: newID(), userId: userID, provider: provider, subject: subject,
            createdAt: now.millisecondsSince1970, lastLoginAt: nil
        )
        try await write { db in try await db.insert(into: "identities").row(identity).run() }
        return identity
    }

    /// The providers (`bankid`, `vipps`, `password`) the user's accounts are linked to, sorted.
    /// The user's sign-in methods: their provider accounts, and `passkey` when they have one.
    public func identityProviders(userID: String) async throws -> [String] {
        try await read { db in try await Self.signInMethods(userID: userID, on: db) }
    }

    static func signInMethods(userID: String, on db: any SQLDatabase) async throws -> [String] {
        let providers = try await db.select().column("provider").from("identities").where("user_id", .equal, userID).orderBy("provider").all()
            .map { try $0.decode(column: "provider", as: String.self) }
        let passkeys = try await db.select().column("id").from("passkeys").where("user_id", .equal, userID).limit(1).first()
        return providers + (passkeys == nil ? [] : [IdentityProvider.passkey.rawValue])
    }

    /// The user linked to a provider account.
    public func user(provider: IdentityProvider, subject: String) async throws -> User? {
        try await read { db in
            try await db.select().columns(SQLColumn(SQLLiteral.all, table: SQLIdentifier("users")))
                .from("users")
                .join("identities", on: SQLColumn("user_id", table: "identities"), .equal, SQLColumn("id", table: "users"))
                .where(SQLColumn("provider", table: "identities"), .equal, SQLBind(provider.rawValue))
                .where(SQLColumn("subject", table: "identities"), .equal, SQLBind(subject))
                .first(as: User.self)
        }
    }

    /// - Throws: ``StoreError/duplicate(_:)`` when the record is held already, or, without a record,
    ///   when the user has this role there without one already.
    public func addMembership(
        userID: String, organisationID: String, role: Role, memberRecordID: String?, now: Date = Date()
    ) async throws -> Membership {
        let membership = Membership(
            userId: userID, organisationId: organisationID, role: role, memberRecordId: memberRecordID,
            createdAt: now.millisecondsSince1970
        )
        try await write { db in try await db.insert(into: "memberships").row(membership).run() }
        return membership
    }

    /// Everyone with a role in the organisation.
    public func memberships(organisationID: String) async throws -> [Membership] {
        try await read { db in
            try await db.select().column("*").from("memberships").where("organisation_id", .equal, organisationID)
                .orderBy("user_id").orderBy("role").all(as: Membership.self)
        }
    }

    public func memberships(userID: String) async throws -> [Membership] {
        try await read { db in
            try await db.select().column("*").from("memberships").where("user_id", .equal, userID)
                .orderBy("organisation_id").orderBy("role").all(as: Membership.self)
        }
    }
}

extension PortvaktStore {
    /// Every organisation the account belongs to, one where its membership is suspended included:
    /// what an administrator's scope asks (issue 58), since lifting the suspension gives the
    /// membership back to this account.
    public func memberOrganisationIDs(userID: String) async throws -> Set<String> {
        try await read { db in try await Self.memberOrganisationIDs(userIDs: [userID], in: db) }
    }

    static func memberOrganisationIDs(userIDs: [String], in db: any SQLDatabase) async throws -> Set<String> {
        let rows = try await db.raw("""
            SELECT organisation_id FROM memberships WHERE user_id IN (\(binds: userIDs)) \
            UNION SELECT organisation_id FROM member_records WHERE suspended_user_id IN (\(binds: userIDs)) AND ended_at IS NULL
            """).all()
        return Set(try rows.map { try $0.decode(column: "organisation_id", as: String.self) })
    }

    /// The user's organisations with their roles, in one query.
    public func organisationRoles(userID: String) async throws -> [OrganisationRoles] {
        try await read { db in try await Self.organisationRoles(userID: userID, in: db) }
    }

    static func organisationRoles(userID: String, in db: any SQLDatabase) async throws -> [OrganisationRoles] {
        struct Row: Decodable {
            let organisationId: String
            let slug: String
            let role: Role
        }
        let rows = try await db.select()
            .column(SQLColumn("organisation_id", table: "memberships"))
            .column(SQLColumn("slug", table: "organisations"))
            .column(SQLColumn("role", table: "memberships"))
            .from("memberships")
            .join("organisations", on: SQLColumn("id", table: "organisations"), .equal, SQLColumn("organisation_id", table: "memberships"))
            .where(SQLColumn("user_id", table: "memberships"), .equal, SQLBind(userID))
            .orderBy(SQLColumn("slug", table: "organisations")).orderBy(SQLColumn("role", table: "memberships"))
            .all(as: Row.self)
        return OrganisationRoles.grouping(rows.map { ($0.organisationId, $0.slug, $0.role) })
    }
}

