import Foundation
import Logging
import PortvaktCore
import PortvaktModels

/// What suspending a membership reads and writes.
public protocol MembershipSuspensionStore: Sendable {
    func memberRecord(id: String) async throws -> MemberRecord?
    func recordHolders(organisationID: String) async throws -> [String: String]
    func suspendMembership(
        recordID: String, holder: String, reason: String, audit: @escaping @Sendable ([EndedAccess]) -> [AuditEvent], now: Date
    ) async throws -> [EndedAccess]
    func liftSuspension(recordID: String, audit: @escaping @Sendable (_ restoredTo: String?) -> AuditEvent, now: Date) async throws -> String?
}

/// An organisation's administrator suspends a member's membership there (issue 45 item 5), from
/// the Members page: the roles resting on the member's record end at once (on every instance:
/// they live in the database), as when the member system ends it, but only in this
/// organisation. A member left with no membership anywhere loses every way in
/// (``MembershipEnding``); one with others keeps them and their sessions. The suspension lasts
/// (``MemberRecord/suspendedAt``): no login, claim or change from the member system links the
/// record again until an administrator there lifts it, which gives it back to the account that
/// held it. The record stays the member system's: ending the membership for good is done there.
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
        let audit = { @Sendable (ended: [EndedAccess]) -> [AuditEvent] in
            MembershipEnding.auditEvents(
                for: ended, in: organisationID, source: source, details: ["record": record.id, "by": "org_admin"], at: now,
                action: .membershipSuspended, actor: adminID
            )
        }
        let ended: [EndedAccess]
        do {
            ended = try await store.suspendMembership(recordID: record.id, holder: current, reason: MembershipEnding.sessionReason, audit: audit, now: now)
        } catch let error as StoreError where error.isConstraint {
            // Another account took the record between the page and the write: nothing changed.
            throw DomainError.invalidInput("Another account holds this member's record now; open the member again.")
        }
        for access in ended {
            logger.notice("Membership suspended", metadata: [
                "user": "\(access.userID)", "organisation": "\(organisationID)", "by": "\(adminID)", "source": "\(source)",
                "left_with_none": "\(access.leftWithNone)", "sessions": "\(access.sessions)", "devices": "\(access.devices)",
            ])
        }
        return ended.first { $0.userID == current }
    }

    /// Lifts the suspension of a record here, audited `user.membership.suspension_lifted`: the
    /// account that held it holds it again at once (its role here is back); without one, the
    /// record waits for its holder's login as any record does.
    /// - Returns: the account given the membership back, if any.
    /// - Throws: as ``suspend(recordID:holder:in:by:source:)``;
    ///   ``DomainError/notSuspended`` for a record that is not suspended.
    public func lift(recordID: String, in organisation: OrganisationRoles, by actor: Actor, source: String) async throws -> String? {
        let now = now()
        try actor.authorize(.membershipSuspend, in: organisation, at: now)
        guard recordID.utf8.count <= 64, let record = try await store.memberRecord(id: recordID),
              record.organisationId == organisation.organisationID
        else { throw DomainError.notFound("member") }
        guard record.suspendedAt != nil else { throw DomainError.notSuspended }
        let (adminID, organisationID) = (actor.userID, organisation.organisationID)
        do {
            let restoredTo = try await store.liftSuspension(recordID: record.id, audit: { restoredTo in
                var details = ["record": record.id, "by": "org_admin"]
                details["restored_to"] = restoredTo
                return AuditEvent(
                    occurredAt: now, action: .membershipSuspensionLifted, outcome: restoredTo == nil ? "record_free" : "membership_restored",
                    actorUserID: UUID(uuidString: adminID), organisationID: UUID(uuidString: organisationID), subjectType: "member_record",
                    subjectID: record.id, source: source, details: details
                )
            }, now: now)
            logger.notice("Membership suspension lifted", metadata: [
                "record": "\(record.id)", "organisation": "\(organisationID)", "by": "\(adminID)", "restored": "\(restoredTo != nil)",
            ])
            return restoredTo
        } catch let error as StoreError where error.isNotFound {
            throw DomainError.notSuspended  // lifted by someone else meanwhile
        }
    }
}
