import Foundation
import PortvaktCore
import PortvaktModels

/// What inviting a member to password login reads and writes.
public protocol MemberInvitationStore: Sendable {
    func user(holdingAnyOf records: [MemberRecord]) async throws -> User?
    func user(email: String) async throws -> User?
    func memberOrganisationIDs(userID: String) async throws -> Set<String>
    func memberRecords(email: String) async throws -> [MemberRecord]
    func insertPasswordInvite(_ invite: PasswordInvite, mail: MailOutboxMessage, audit: AuditEvent) async throws
}

/// An administrator invites a member to password login: a one-time link (24 hours) goes to the
/// email on the member's record, never to the administrator (review II, item 1). The link is
/// bound to the account holding the record, or for a record without one to that record alone;
/// it is refused when the email would lead anywhere else.
public struct MemberInvitations: Sendable {
    let store: any MemberInvitationStore
    let mailer: Mailer
    /// The page a token opens.
    let link: @Sendable (String) -> String
    let now: @Sendable () -> Date

    public static let lifetime: TimeInterval = 24 * 3600

    public init(store: any MemberInvitationStore, mailer: Mailer, link: @escaping @Sendable (String) -> String, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.mailer = mailer
        self.link = link
        self.now = now
    }

    /// Sends the invitation for `record`, a record of `organisation`.
    /// - Throws: ``DomainError/notAllowed`` for anyone but an administrator there; a conflict
    ///   (``DomainError/inviteNeedsEmail`` and the others) when the email would reach anyone
    ///   but this member, or open more than this organisation.
    public func invite(_ record: MemberRecord, in organisation: OrganisationRoles, by actor: Actor, source: String) async throws {
        try actor.require(MemberAdministration.administrators, in: organisation)
        guard record.organisationId == organisation.organisationID else { throw DomainError.notFound("member") }
        // A password would give the suspended membership back (issue 45 item 5).
        guard record.suspendedAt == nil else { throw DomainError.inviteSuspended }
        guard let email = record.email, let address = try? MailAddress(email) else { throw DomainError.inviteNeedsEmail }
        let holder = try await store.user(holdingAnyOf: [record])
        if let owner = try await store.user(email: address.address), owner.id != holder?.id {
            throw DomainError.inviteEmailOtherAccount
        }
        if let holder {
            // The password would open the whole account: only one whose own email is this one,
            // and whose roles are all in this organisation.
            guard let held = holder.email else { throw DomainError.inviteAccountWithoutEmail }
            guard held.lowercased() == address.address.lowercased() else { throw DomainError.inviteEmailOtherAccount }
            guard try await store.memberOrganisationIDs(userID: holder.id).allSatisfy({ $0 == record.organisationId }) else {
                throw DomainError.inviteAccountElsewhere
            }
        }
        for other in try await store.memberRecords(email: address.address) where other.organisationId != record.organisationId {
            guard let holder, try await store.user(holdingAnyOf: [other])?.id == holder.id else {
                throw DomainError.inviteEmailOtherOrganisations
            }
        }
        let token = randomToken()
        let now = self.now()
        // Portvakt keeps no language per member: Bokmål, the organisations' own.
        let mail = try mailer.message(.passwordInvite(link: link(token)), to: address.address, language: .nb, brand: await mailer.brand(of: record.organisationId))
        try await store.insertPasswordInvite(
            PasswordInvite(
                tokenHash: RefreshTokenSecret.hash(token), memberRecordID: record.id, userID: holder?.id, email: address.address.lowercased(),
                createdBy: actor.userID, now: now, lifetime: Self.lifetime
            ),
            mail: mail,
            audit: AuditEvent(
                occurredAt: now, action: .userPasswordInvited, outcome: "success", actorUserID: UUID(uuidString: actor.userID),
                organisationID: UUID(uuidString: organisation.organisationID), subjectType: "member", subjectID: record.id, source: source,
                details: ["mail": mail.id, "bound_to": holder == nil ? "record" : "account"]
            )
        )
    }
}
