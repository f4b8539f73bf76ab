import Foundation
import Logging
import PortvaktCore
import PortvaktModels

/// What an administrator's actions on members and deliveries read and write.
public protocol MemberAdministrationStore: Sendable {
    func memberships(organisationID: String) async throws -> [Membership]
    func activeDevices(userID: String) async throws -> [Device]
    func revokeDevice(id: String, userID: String, now: Date) async throws -> Bool
    func organisation(id: String) async throws -> Organisation?
    func user(id: String) async throws -> User?
    func outboxMessage(id: String) async throws -> OutboxMessage?
    func retryOutboxMessage(id: String, organisationID: String, now: Date) async throws -> OutboxMessage?
    func append(_ event: AuditEvent) async throws
    func memberRecords(organisationID: String) async throws -> [MemberRecord]
    func recordHolders(organisationID: String) async throws -> [String: String]
    func outboxMessages(organisationID: String, status: String?) async throws -> [OutboxMessage]
    func memberOrganisationIDs(userID: String) async throws -> Set<String>
}

/// An administrator's actions on members and deliveries that the JSON API and the portal share:
/// only an administrator of the organisation, only on its members and its messages, each
/// audited with the administrator, the organisation and the surface.
public struct MemberAdministration: Sendable {
    let store: any MemberAdministrationStore
    let mailer: Mailer
    let logger: Logger
    let now: @Sendable () -> Date

    public init(store: any MemberAdministrationStore, mailer: Mailer, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.mailer = mailer
        self.logger = logger
        self.now = now
    }

    /// Who may act on an organisation's members and deliveries.
    public static let administrators: Set<Role> = [.orgAdmin]
    /// Who may read the member list (to assign contacts, for instance).
    public static let memberListReaders: Set<Role> = [.coordinator, .orgAdmin]

    /// The organisation's member records, each with the account that holds it (if any).
    public func members(of organisation: OrganisationRoles, by actor: Actor) async throws -> [(record: MemberRecord, holder: String?)] {
        try actor.require(Self.memberListReaders, in: organisation)
        let holders = try await store.recordHolders(organisationID: organisation.organisationID)
        return try await store.memberRecords(organisationID: organisation.organisationID).map { ($0, holders[$0.id]) }
    }

    /// The updates for the organisation's member system, optionally in one status.
    public func outbox(of organisation: OrganisationRoles, status: String?, by actor: Actor) async throws -> [OutboxMessage] {
        try actor.require(Self.administrators, in: organisation)
        return try await store.outboxMessages(organisationID: organisation.organisationID, status: status)
    }

    /// Administrator scope (DESIGN.md, "Trust between organisations"): a person's own sign-in
    /// methods (devices, passkeys, sessions, password) are changed by an organisation's
    /// administrator only when the person belongs to that organisation alone; a person in others
    /// too does it in My account (or the operator, with `user sign-out`).
    public static func mayChangeSignInMethods(memberOf organisations: Set<String>, by organisationID: String) -> Bool {
        organisations == [organisationID]
    }

    /// Whether this organisation's administrators may change the member's sign-in methods.
    public func mayChangeSignInMethods(of userID: String, in organisationID: String) async throws -> Bool {
        // A suspended membership counts: the person still belongs there.
        Self.mayChangeSignInMethods(memberOf: try await store.memberOrganisationIDs(userID: userID), by: organisationID)
    }

    /// A lost phone: every biometric device of the member is revoked, which ends the sessions
    /// they unlocked; the member is told by email. A phone unlocks the member in every
    /// organisation they belong to, so one organisation's administrator needs the policy of the
    /// other sensitive actions (``SensitiveAction/devicesRemoveAll``), checked before anything
    /// about the member is read, and acts only on a member of theirs alone
    /// (``mayChangeSignInMethods(memberOf:by:)``).
    /// - Returns: how many were revoked.
    /// - Throws: ``DomainError/notAllowed`` for anyone but an administrator there;
    ///   ``DomainError/stepUpRequired(_:)`` without a fresh BankID, Vipps or passkey sign-in;
    ///   ``DomainError/notFound(_:)`` for someone who is not a member of the organisation;
    ///   ``DomainError/signInMethodsElsewhere`` for a member of other organisations too.
    public func removeAllDevices(of userID: String, in organisation: OrganisationRoles, by actor: Actor, source: String) async throws -> Int {
        let now = now()
        try actor.authorize(.devicesRemoveAll, in: organisation, at: now)
        guard try await store.memberships(organisationID: organisation.organisationID).contains(where: { $0.userId == userID }) else {
            throw DomainError.notFound("member")
        }
        guard try await mayChangeSignInMethods(of: userID, in: organisation.organisationID) else { throw DomainError.signInMethodsElsewhere }
        var revoked = 0
        for device in try await store.activeDevices(userID: userID) where try await store.revokeDevice(id: device.id, userID: userID, now: now) {
            revoked += 1
            try await store.append(AuditEvent(
                occurredAt: now, action: .deviceRevoked, outcome: "success", actorUserID: UUID(uuidString: actor.userID),
                organisationID: UUID(uuidString: organisation.organisationID), subjectType: "device", subjectID: device.id, source: source,
                details: ["by": "org_admin", "user": userID]
            ))
        }
        if revoked > 0 {
            let brand = await mailer.brand(of: organisation.organisationID)
            let name = if let brand { brand.name } else { try await store.organisation(id: organisation.organisationID)?.name }
            await mailer.notify(.devicesRemovedByAdmin(organisation: name), to: try await store.user(id: userID)?.email, brand: brand, logger: logger)
        }
        return revoked
    }

    /// Sends a dead or waiting message again now (same id, so the receiver's idempotency key is
    /// unchanged), with a fresh set of attempts; audited.
    /// - Throws: ``DomainError``: not allowed; not found (also another organisation's message);
    ///   a conflict when it is delivered or being delivered.
    public func retryDelivery(_ id: String, in organisation: OrganisationRoles, by actor: Actor, source: String) async throws -> OutboxMessage {
        try actor.require(Self.administrators, in: organisation)
        guard id.utf8.count <= 64, let before = try await store.outboxMessage(id: id), before.organisationId == organisation.organisationID else {
            throw DomainError.notFound("message")
        }
        guard let message = try await store.retryOutboxMessage(id: id, organisationID: organisation.organisationID, now: now()) else {
            throw before.status == .delivered ? DomainError.alreadyDelivered : DomainError.beingDelivered
        }
        try await store.append(AuditEvent(
            occurredAt: now(), action: .memberOutboxRetried, outcome: "success", actorUserID: UUID(uuidString: actor.userID),
            organisationID: UUID(uuidString: organisation.organisationID), subjectType: "outbox", subjectID: id, source: source,
            details: ["status_before": before.status.rawValue, "attempts_before": "\(before.attempts)", "member": message.memberRecordId ?? ""]
        ))
        return message
    }
}
