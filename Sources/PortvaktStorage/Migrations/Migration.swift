import SQLKit

/// One step of the schema, applied once, in order, inside a transaction.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    let apply: @Sendable (any SQLDatabase) async throws -> Void
    let kind: Kind

    /// What a migration does to the releases before it; every migration says (no default, so a
    /// step that removes something cannot pass for one that adds).
    enum Kind: Sendable {
        /// Only adds (tables, nullable or defaulted columns, indexes): the releases before keep
        /// serving beside it.
        case expand
        /// Removes or changes what a release before reads, or replaces a function it calls:
        /// those releases' instances must stop before it runs (CHANGELOG.md says so).
        case contract
    }

    init(version: Int, name: String, apply: @escaping @Sendable (any SQLDatabase) async throws -> Void, kind: Kind) {
        self.version = version
        self.name = name
        self.apply = apply
        self.kind = kind
    }

    /// The oldest newest-migration a release may have and still run with the migration at
    /// `index` of `migrations` applied (`portvakt_migrations.compatible_from`): its own version
    /// for a contract step; for an expand step, what the step before allows, so that a release
    /// of several expand steps leaves the release before them all running.
    static func compatibleFrom(at index: Int, of migrations: [Migration]) -> Int {
        var index = index
        while index > 0, migrations[index].kind == .expand { index -= 1 }
        return migrations[index].kind == .contract ? migrations[index].version : 0
    }

    /// Every migration this build knows, oldest first. Never edit one that has shipped: add another.
    /// Those up to 35 came before the first release (1.0.0): none has a release before it to keep.
    public static let all: [Migration] = [
        Migration(version: 1, name: "initial schema", apply: InitialSchema.apply, kind: .contract),
        Migration(version: 2, name: "member roles", apply: MemberRoles.apply, kind: .contract),
        Migration(version: 3, name: "bankid orders", apply: BankIDOrders.apply, kind: .contract),
        Migration(version: 4, name: "devices and app data", apply: DevicesAndAppData.apply, kind: .contract),
        Migration(version: 5, name: "audit hash chain", apply: AuditChainMigration.apply, kind: .contract),
        Migration(version: 6, name: "member sync and outbox", apply: MemberSyncMigration.apply, kind: .contract),
        Migration(version: 7, name: "session indexes", apply: SessionIndexes.apply, kind: .contract),
        Migration(version: 8, name: "audit keys", apply: AuditKeyMigration.apply, kind: .contract),
        Migration(version: 9, name: "outbox claims", apply: OutboxClaims.apply, kind: .contract),
        Migration(version: 10, name: "login throttles", apply: LoginThrottles.apply, kind: .contract),
        Migration(version: 11, name: "portal sessions", apply: PortalSessions.apply, kind: .contract),
        Migration(version: 12, name: "password invites", apply: PasswordInvites.apply, kind: .contract),
        Migration(version: 13, name: "sender-constrained tokens", apply: SenderConstrainedTokens.apply, kind: .contract),
        Migration(version: 14, name: "rotation function", apply: RotationFunction.apply, kind: .contract),
        Migration(version: 15, name: "audit events linked after commit", apply: AuditLinking.apply, kind: .contract),
        Migration(version: 16, name: "device unlock function", apply: DeviceUnlockFunction.apply, kind: .contract),
        Migration(version: 17, name: "active sessions by device", apply: ActiveSessionsByDevice.apply, kind: .contract),
        Migration(version: 18, name: "authorization code tombstones", apply: AuthorizationCodeTombstones.apply, kind: .contract),
        Migration(version: 19, name: "mail outbox", apply: MailOutbox.apply, kind: .contract),
        Migration(version: 20, name: "password invites bound to the holder", apply: BoundPasswordInvites.apply, kind: .contract),
        Migration(version: 21, name: "audit verified head", apply: AuditVerifiedHead.apply, kind: .contract),
        Migration(version: 22, name: "membership claims", apply: MembershipClaims.apply, kind: .contract),
        Migration(version: 23, name: "audit addresses", apply: AuditAddresses.apply, kind: .contract),
        Migration(version: 24, name: "passkeys", apply: Passkeys.apply, kind: .contract),
        Migration(version: 25, name: "throttle keys under the index key", apply: HashedThrottleKeys.apply, kind: .contract),
        Migration(version: 26, name: "sessions opened by a passkey", apply: SessionsByPasskey.apply, kind: .contract),
        Migration(version: 27, name: "member directory", apply: MemberDirectoryMigration.apply, kind: .contract),
        Migration(version: 28, name: "no session for a disabled account", apply: DisabledUsers.apply, kind: .contract),
        Migration(version: 29, name: "suspended memberships", apply: SuspendedMemberships.apply, kind: .contract),
        Migration(version: 30, name: "end passkey sessions that name no passkey", apply: PasskeySessionsBeforeV26.apply, kind: .contract),
        Migration(version: 31, name: "signing key algorithms", apply: SigningKeyAlgorithms.apply, kind: .contract),
        Migration(version: 32, name: "index key state", apply: IndexKeyStateMigration.apply, kind: .contract),
        Migration(version: 33, name: "memberships by record", apply: MembershipsByRecord.apply, kind: .contract),
        Migration(version: 34, name: "session scopes", apply: SessionScopes.apply, kind: .contract),
        Migration(version: 35, name: "single sign-on, consents and back-channel logouts", apply: SingleSignOn.apply, kind: .contract),
        Migration(version: 36, name: "sessions by absolute end", apply: SessionsByAbsoluteEnd.apply, kind: .expand),
        Migration(version: 37, name: "device key assurance", apply: DeviceKeyAssurance.apply, kind: .contract),
        // Contract: a 1.x instance cannot read a pending login in Nynorsk (`nn`) that this release writes.
        Migration(version: 38, name: "organisation brands", apply: OrganisationBrands.apply, kind: .contract),
    ]
}
