import Foundation
import PortvaktCore
import PortvaktStorage

/// An administrator's actions on members and deliveries that the JSON API and the portal share,
/// each audited with the administrator and the organisation.
struct MemberAdministration: Sendable {
    let broker: Broker
    let adminID: String
    let organisationID: String

    /// A lost phone: every biometric device of the member is revoked, which ends the sessions
    /// they unlocked. - Returns: how many were revoked.
    func removeAllDevices(userID: String, source: String) async throws -> Int {
        let now = broker.now()
        var revoked = 0
        for device in try await broker.store.activeDevices(userID: userID) where try await broker.store.revokeDevice(id: device.id, userID: userID, now: now) {
            revoked += 1
            try await broker.store.append(AuditEvent(
                occurredAt: now, action: "device.revoked", outcome: "success", actorUserID: UUID(uuidString: adminID),
                organisationID: UUID(uuidString: organisationID), subjectType: "device", subjectID: device.id, source: source,
                details: ["by": "org_admin", "user": userID]
            ))
        }
        if revoked > 0 {
            let organisation = try await broker.store.organisation(id: organisationID)?.name
            await broker.mailer.notify(.devicesRemovedByAdmin(organisation: organisation), to: try await broker.store.user(id: userID)?.email, logger: broker.logger)
        }
        return revoked
    }

    enum RetryOutcome {
        case retried(OutboxMessage)
        /// Not a message of this organisation.
        case notFound
        case alreadyDelivered
        case beingDelivered
    }

    /// Sends a dead or waiting message again now (same id, so the receiver's idempotency key is
    /// unchanged), with a fresh set of attempts; audited.
    func retryDelivery(id: String, source: String) async throws -> RetryOutcome {
        guard id.utf8.count <= 64, let before = try await broker.store.outboxMessage(id: id), before.organisationId == organisationID else { return .notFound }
        guard let message = try await broker.store.retryOutboxMessage(id: id, organisationID: organisationID, now: broker.now()) else {
            return before.status == "delivered" ? .alreadyDelivered : .beingDelivered
        }
        try await broker.store.append(AuditEvent(
            occurredAt: broker.now(), action: "member.outbox.retried", outcome: "success", actorUserID: UUID(uuidString: adminID),
            organisationID: UUID(uuidString: organisationID), subjectType: "outbox", subjectID: id, source: source,
            details: ["status_before": before.status, "attempts_before": "\(before.attempts)", "member": message.memberRecordId ?? ""]
        ))
        return .retried(message)
    }
}
