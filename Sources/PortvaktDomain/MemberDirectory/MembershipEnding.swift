import Foundation
import Logging
import PortvaktCore
import PortvaktModels

/// Ends memberships and the sessions they carried, with their audit, in one transaction.
public protocol MembershipEndingStore: Sendable {
    func endMemberships(
        recordIDs: [String], reason: String, audit: @escaping @Sendable ([EndedAccess]) -> [AuditEvent], now: Date
    ) async throws -> [EndedAccess]
}

/// The end of a membership (issue 45, "Leaving"): the roles resting on a member record are gone
/// at once on every instance (they live in the database), and a person left with no membership
/// anywhere loses every way in: sessions and portal sessions end, devices are revoked, passkeys
/// removed; their next login finds no organisation that has them.
///
/// The store does the ending inside the transaction that ends the record
/// (``MemberDirectoryStore/writeMemberRecords(adding:changing:reason:audit:now:)``); this type names it in
/// the audit trail and the log, and ends memberships on their own for an administrator's suspension.
public struct MembershipEnding: Sendable {
    let store: any MembershipEndingStore
    let logger: Logger
    let now: @Sendable () -> Date

    /// The `revoked_reason` of the sessions that end.
    public static let sessionReason = "membership_ended"

    public init(store: any MembershipEndingStore, logger: Logger = Logger(label: "portvakt.membership"), now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.logger = logger
        self.now = now
    }

    /// Ends the memberships resting on these records of the organisation now (the records stay
    /// as they are), audited, in one transaction.
    /// - Parameters:
    ///   - source: the audit events' source (`admin`, `scim`, …).
    ///   - details: what the events say of who did it.
    public func end(recordIDs: [String], in organisationID: String, source: String, details: [String: String] = [:]) async throws -> [EndedAccess] {
        let now = now()
        let ended = try await store.endMemberships(recordIDs: recordIDs, reason: Self.sessionReason, audit: { ended in
            Self.auditEvents(for: ended, in: organisationID, source: source, details: details, at: now)
        }, now: now)
        log(ended, in: organisationID, source: source)
        return ended
    }

    /// One event per account that lost roles (`user.membership.ended` unless `action` says
    /// otherwise), saying whether it was left with none and what ended with that.
    public static func auditEvents(
        for ended: [EndedAccess], in organisationID: String, source: String, details: [String: String], at now: Date,
        action: AuditAction = .membershipEnded, actor: String? = nil
    ) -> [AuditEvent] {
        ended.map { access in
            var details = details
            details["left_with_none"] = access.leftWithNone ? "true" : "false"
            if access.leftWithNone {
                details["sessions_ended"] = "\(access.sessions)"
                details["devices_revoked"] = "\(access.devices)"
                details["passkeys_removed"] = "\(access.passkeys)"
            }
            return AuditEvent(
                occurredAt: now, action: action, outcome: access.leftWithNone ? "access_ended" : "membership_ended",
                actorUserID: actor.flatMap(UUID.init(uuidString:)), organisationID: UUID(uuidString: organisationID), subjectType: "user",
                subjectID: access.userID, source: source, details: details
            )
        }
    }

    /// A log line per account (ids and counts only).
    public func log(_ ended: [EndedAccess], in organisationID: String, source: String) {
        for access in ended {
            logger.notice("Membership ended", metadata: [
                "user": "\(access.userID)", "organisation": "\(organisationID)", "source": "\(source)",
                "left_with_none": "\(access.leftWithNone)", "sessions": "\(access.sessions)", "devices": "\(access.devices)",
            ])
        }
    }
}
