import Foundation
import Logging
import PortvaktCore
import PortvaktStorage

/// What suspending a membership reads and writes.
public protocol MembershipSuspensionStore: Sendable {
    func memberRecord(id: String) async throws -> MemberRecord?
    func recordHolders(organisationID: String) async throws -> [String: String]
    func endMemberships(
        recordIDs: [String], reason: String, audit: @escaping @Sendable ([EndedAccess]) -> [AuditEvent], now: Date
    ) async throws -> [EndedAccess]
}

extension PortvaktStore: MembershipSuspensionStore {}

/// An organisation's administrator suspends a member's membership there (issue 45 item 5), from
/// the Members page: the roles resting on the member's record end at once (on every instance:
/// they live in the database), as when the member system ends it, but only in this
/// organisation. A member left with no membership anywhere loses every way in
/// (``MembershipEnding``); one with others keeps them and their sessions. The record stays the
/// member system's: ending the membership for good is done there.
///
/// It can end a person's every way in, so it needs the administrators' step-up
/// (``SensitiveAction/membershipSuspend``), checked before anything about the member is read.
public struct MembershipSuspension: Sendable {
    let store: any MembershipSuspensionStore
    let logger: Logger
    let now: @Sendable () -> Date

    public init(store: any MembershipSuspensionStore, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.logger = logger
        self.now = now
    }

    /// Suspends the membership resting on the record, audited `user.membership.suspended` with
    /// the administrator, the organisation and the surface, in the transaction that ends it.
    /// - Parameters:
    ///   - holder: the account the administrator was shown holding the record; when another
    ///     holds it now, nothing is done (they would suspend someone they did not see).
    ///   - source: the surface (`portal`).
    /// - Returns: what ended; nil when no account holds the record (there is no membership to end).
    /// - Throws: ``DomainError/notAllowed`` for anyone but an administrator there;
    ///   ``DomainError/stepUpRequired(_:)`` without a fresh BankID, Vipps or passkey sign-in;
    ///   ``DomainError/notFound(_:)`` for a record of another organisation (or none);
    ///   ``DomainError/invalidInput(_:)`` when the record's holder is not `holder`;
    ///   ``DomainError/suspendOwnMembership`` for the administrator's own membership.
    public func suspend(recordID: String, holder: String, in organisation: OrganisationRoles, by actor: Actor, source: String) async throws -> EndedAccess? {
        let now = now()
        try actor.authorize(.membershipSuspend, in: organisation, at: now)
        guard recordID.utf8.count <= 64, let record = try await store.memberRecord(id: recordID), record.organisationId == organisation.organisationID else {
            throw DomainError.notFound("member")
        }
        guard let current = try await store.recordHolders(organisationID: organisation.organisationID)[record.id] else { return nil }
        guard current == holder else {
            throw DomainError.invalidInput("Another account holds this member's record now; open the member again.")
        }
        guard current != actor.userID else { throw DomainError.suspendOwnMembership }
        let (adminID, organisationID) = (actor.userID, organisation.organisationID)
        let ended = try await store.endMemberships(recordIDs: [record.id], reason: MembershipEnding.sessionReason, audit: { ended in
            ended.map { access -> AuditEvent in
                var details = ["record": record.id, "by": "org_admin", "left_with_none": access.leftWithNone ? "true" : "false"]
                if access.leftWithNone {
                    details["sessions_ended"] = "\(access.sessions)"
                    details["devices_revoked"] = "\(access.devices)"
                    details["passkeys_removed"] = "\(access.passkeys)"
                }
                return AuditEvent(
                    occurredAt: now, action: .membershipSuspended, outcome: access.leftWithNone ? "access_ended" : "membership_ended",
                    actorUserID: UUID(uuidString: adminID), organisationID: UUID(uuidString: organisationID), subjectType: "user",
                    subjectID: access.userID, source: source, details: details
                )
            }
        }, now: now)
        for access in ended {
            logger.notice("Membership suspended", metadata: [
                "user": "\(access.userID)", "organisation": "\(organisationID)", "by": "\(adminID)", "source": "\(source)",
                "left_with_none": "\(access.leftWithNone)", "sessions": "\(access.sessions)", "devices": "\(access.devices)",
            ])
        }
        return ended.first { $0.userID == current }
    }
}
