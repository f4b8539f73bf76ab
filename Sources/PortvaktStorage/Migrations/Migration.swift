import SQLKit

/// One step of the schema, applied once, in order, inside a transaction.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    let apply: @Sendable (any SQLDatabase) async throws -> Void
    /// It removes or changes what the release before reads (a contract step): that release's
    /// instances must stop before it runs. Otherwise it only adds (expand), and the release
    /// before, whose newest migration is the one before this, keeps serving beside it.
    var contracts = false

    init(version: Int, name: String, apply: @escaping @Sendable (any SQLDatabase) async throws -> Void, contracts: Bool = false) {
        self.version = version
        self.name = name
        self.apply = apply
        self.contracts = contracts
    }

    /// The oldest newest-migration a release may have and still run with this one applied
    /// (`portvakt_migrations.compatible_from`).
    var compatibleFrom: Int { contracts ? version : version - 1 }

    /// Every migration this build knows, oldest first. Never edit one that has shipped: add another.
    public static let all: [Migration] = [
        Migration(version: 1, name: "initial schema", apply: InitialSchema.apply),
        Migration(version: 2, name: "member roles", apply: MemberRoles.apply),
        Migration(version: 3, name: "bankid orders", apply: BankIDOrders.apply),
        Migration(version: 4, name: "devices and app data", apply: DevicesAndAppData.apply),
        Migration(version: 5, name: "audit hash chain", apply: AuditChainMigration.apply),
        Migration(version: 6, name: "member sync and outbox", apply: MemberSyncMigration.apply),
        Migration(version: 7, name: "session indexes", apply: SessionIndexes.apply),
        Migration(version: 8, name: "audit keys", apply: AuditKeyMigration.apply),
        Migration(version: 9, name: "outbox claims", apply: OutboxClaims.apply),
        Migration(version: 10, name: "login throttles", apply: LoginThrottles.apply),
        Migration(version: 11, name: "portal sessions", apply: PortalSessions.apply),
        Migration(version: 12, name: "password invites", apply: PasswordInvites.apply),
        Migration(version: 13, name: "sender-constrained tokens", apply: SenderConstrainedTokens.apply),
        Migration(version: 14, name: "rotation function", apply: RotationFunction.apply),
        Migration(version: 15, name: "audit events linked after commit", apply: AuditLinking.apply),
        Migration(version: 16, name: "device unlock function", apply: DeviceUnlockFunction.apply),
        Migration(version: 17, name: "active sessions by device", apply: ActiveSessionsByDevice.apply),
        Migration(version: 18, name: "authorization code tombstones", apply: AuthorizationCodeTombstones.apply),
        Migration(version: 19, name: "mail outbox", apply: MailOutbox.apply),
        Migration(version: 20, name: "password invites bound to the holder", apply: BoundPasswordInvites.apply),
        Migration(version: 21, name: "audit verified head", apply: AuditVerifiedHead.apply),
        Migration(version: 22, name: "membership claims", apply: MembershipClaims.apply),
        Migration(version: 23, name: "audit addresses", apply: AuditAddresses.apply),
        Migration(version: 24, name: "passkeys", apply: Passkeys.apply),
        Migration(version: 25, name: "throttle keys under the index key", apply: HashedThrottleKeys.apply),
        Migration(version: 26, name: "sessions opened by a passkey", apply: SessionsByPasskey.apply),
        Migration(version: 27, name: "member directory", apply: MemberDirectoryMigration.apply),
        Migration(version: 28, name: "no session for a disabled account", apply: DisabledUsers.apply),
        Migration(version: 29, name: "suspended memberships", apply: SuspendedMemberships.apply),
        Migration(version: 30, name: "end passkey sessions that name no passkey", apply: PasskeySessionsBeforeV26.apply),
        Migration(version: 31, name: "signing key algorithms", apply: SigningKeyAlgorithms.apply),
        Migration(version: 32, name: "index key state", apply: IndexKeyStateMigration.apply),
        Migration(version: 33, name: "memberships by record", apply: MembershipsByRecord.apply),
        Migration(version: 34, name: "session scopes", apply: SessionScopes.apply),
        Migration(version: 35, name: "single sign-on, consents and back-channel logouts", apply: SingleSignOn.apply),
    ]
}
