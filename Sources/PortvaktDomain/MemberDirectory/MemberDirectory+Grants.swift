import Foundation
import Logging
import PortvaktCore
import PortvaktModels

/// The person is told (DESIGN.md, "Trust between organisations"): when a member system or an
/// import gives an existing account a membership, or a role above peer mentor, the account gets
/// a security event of its own (My account) and its email a notice, so an organisation cannot
/// enrol or promote someone without their knowing.
extension MemberDirectory {
    struct Grant: Sendable, Hashable {
        let userID: String
        let recordID: String
        let role: Role
    }

    /// What a write granted: every record an existing account took by its number, and every role
    /// change to one above peer mentor.
    static func grants(_ effects: MemberRecordWriteEffects, roles: [String: Role]) -> [Grant] {
        var grants: [Grant] = []
        for (userID, recordID) in effects.linked + effects.promoted {
            guard let role = roles[recordID] else { continue }
            let grant = Grant(userID: userID, recordID: recordID, role: role)
            if !grants.contains(grant) { grants.append(grant) }
        }
        return grants
    }

    /// The person's security event: the account is its subject (My account lists those too), the
    /// member system its actor, as the details name it.
    func grantEvent(_ grant: Grant, in organisationID: String, actor: DirectoryActor, at now: Date) -> AuditEvent {
        AuditEvent(
            occurredAt: now, action: .membershipGranted, outcome: grant.role.rawValue,
            organisationID: UUID(uuidString: organisationID), subjectType: "user", subjectID: grant.userID, source: actor.source,
            details: actor.details.merging(["member": grant.recordID]) { _, own in own }
        )
    }

    /// The notices by email, after the write committed; a notice that cannot be queued is logged.
    func tell(_ grants: [Grant], in organisationID: String) async {
        guard !grants.isEmpty else { return }
        let brand = await mailer.brand(of: organisationID)
        let name = if let brand { brand.name } else { try? await store.organisation(id: organisationID)?.name }
        for grant in grants {
            let email = try? await store.user(id: grant.userID)?.email
            // Portvakt keeps no language per member: Bokmål, the organisations' own.
            await mailer.notify(.membershipGranted(organisation: name, role: grant.role), to: email ?? nil, brand: brand, logger: logger)
        }
    }
}
