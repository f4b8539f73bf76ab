import Foundation
import PortvaktCore
import PortvaktModels

/// The member directory's audit events: the record as subject, the actor's kind and name in the
/// details, never a personnummer (only whether it was set or removed).
extension MemberDirectory {
    func recordEvent(_ action: AuditAction, record: MemberRecord, actor: DirectoryActor, at now: Date, details: [String: String] = [:]) -> AuditEvent {
        AuditEvent(
            occurredAt: now, action: action, outcome: "success", organisationID: UUID(uuidString: record.organisationId),
            subjectType: "member", subjectID: record.id, source: actor.source, details: actor.details.merging(details) { _, own in own }
        )
    }

    /// `ended` (active → not active), `reactivated` (back), otherwise `updated`; with the
    /// attributes that changed.
    func changeEvents(_ change: PlannedChange, actor: DirectoryActor, at now: Date) -> [AuditEvent] {
        let (before, after) = (change.before, change.entry.values)
        let action: AuditAction = switch (before.isActive, after.active) {
        case (true, false): .memberDirectoryEnded
        case (false, true): .memberDirectoryReactivated
        default: .memberDirectoryUpdated
        }
        var details = ["fields": change.fields.joined(separator: ",")]
        if before.role != after.role {
            details["role_before"] = before.role.rawValue
            details["role"] = after.role.rawValue
        }
        switch change.personnummer {
        case .keep: break
        case .remove: details["personnummer_change"] = "removed"
        case .set: details["personnummer_change"] = "set"
        }
        return [recordEvent(action, record: before, actor: actor, at: now, details: details)]
    }

    /// The events of what a write did to accounts: memberships ended (``MembershipEnding``) and
    /// records an account took by its personnummer.
    func effectEvents(_ effects: MemberRecordWriteEffects, in organisationID: String, actor: DirectoryActor, at now: Date) -> [AuditEvent] {
        MembershipEnding.auditEvents(for: effects.ended, in: organisationID, source: actor.source, details: actor.details, at: now)
            + effects.detached.map { detached in
                AuditEvent(
                    occurredAt: now, action: .memberDetached, outcome: "number_not_holders", organisationID: UUID(uuidString: organisationID),
                    subjectType: "member", subjectID: detached.recordID, source: actor.source,
                    details: actor.details.merging(["holder": detached.userID]) { _, own in own }
                )
            }
            + effects.linked.map { link in
                AuditEvent(
                    occurredAt: now, action: .memberDirectoryLinked, outcome: "success", organisationID: UUID(uuidString: organisationID),
                    subjectType: "member", subjectID: link.recordID, source: actor.source,
                    details: actor.details.merging(["user": link.userID, "by": "personnummer"]) { _, own in own }
                )
            }
    }
}
