import Foundation
import PortvaktCore
import PortvaktStorage

/// Merging two accounts of one person (an administrator found a duplicate): the kept account
/// gets the other's provider accounts, roles, devices and data; the kept personnummer stays, or
/// the removed one's is taken when the kept account has none.
///
/// A merge moves logins and roles, so an administrator's merge must never widen anyone's access:
/// both accounts must be members of the administrator's organisation and of no other, and
/// neither may be the administrator's own (README, "Merging accounts"). The operator's
/// `portvakt-server merge-users` is not bound by an organisation.
struct AccountMerge: Sendable {
    let store: PortvaktStore
    let vault: PersonnummerVault

    /// Why an administrator may not merge these accounts; the text is safe to show.
    struct Refusal: Error, Sendable {
        let description: String

        static let sameAccount = Refusal(description: "An account cannot be merged with itself.")
        static let ownAccount = Refusal(description: "Administrators cannot merge their own account; ask another administrator.")
        static let notMembers = Refusal(description: "Both accounts must be members of this organisation.")
        static let otherOrganisation = Refusal(
            description: "One of the accounts is also a member of another organisation; its administrators must be involved, or an operator merges with portvakt-server merge-users."
        )
    }

    /// An organisation administrator's merge: refused unless it stays inside their organisation.
    func mergeAsAdministrator(keep: String, remove: String, adminID: String, organisationID: String, now: Date) async throws {
        if let refusal = try await refusal(keep: keep, remove: remove, adminID: adminID, organisationID: organisationID) { throw refusal }
        try await merge(keep: keep, remove: remove, by: adminID, source: "admin-review", organisationID: organisationID, now: now)
    }

    /// Why an administrator may not merge these accounts; nil when they may.
    func refusal(keep: String, remove: String, adminID: String, organisationID: String) async throws -> Refusal? {
        guard keep != remove else { return .sameAccount }
        guard adminID != keep, adminID != remove else { return .ownAccount }
        for account in [keep, remove] {
            let organisations = Set(try await store.organisationRoles(userID: account).map(\.organisationID))
            guard organisations.contains(organisationID) else { return .notMembers }
            guard organisations == [organisationID] else { return .otherOrganisation }
        }
        return nil
    }

    /// Merges without an organisation's bounds (the operator's command); audits both accounts'
    /// roles and provider accounts before, and the kept account's after.
    func merge(keep: String, remove: String, by actor: String?, source: String, organisationID: String? = nil, now: Date) async throws {
        guard keep != remove, let kept = try await store.user(id: keep), let removed = try await store.user(id: remove) else {
            throw StoreError.notFound("users")
        }
        var personnummer: ProtectedPersonnummer?
        if kept.personnummer == nil, let sealed = removed.personnummer?.sealed {
            personnummer = try vault.protect(try vault.open(sealed, record: "user:\(remove)"), record: "user:\(keep)")
        }
        let keptBefore = try await access(of: keep)
        let removedBefore = try await access(of: remove)
        try await store.mergeUsers(keep: keep, remove: remove, personnummer: personnummer, audit: AuditEvent(
            occurredAt: now, action: "user.merged", outcome: "success", actorUserID: actor.flatMap(UUID.init(uuidString:)),
            organisationID: organisationID.flatMap(UUID.init(uuidString:)), subjectType: "user", subjectID: keep, source: source, details: [
                "removed": remove, "kept_before": keptBefore.description, "removed_before": removedBefore.description,
                "kept_after": keptBefore.union(removedBefore).description,
            ]
        ))
    }

    /// What an account can reach: its roles per organisation and its provider accounts.
    private func access(of userID: String) async throws -> Access {
        let roles = try await store.organisationRoles(userID: userID).flatMap { organisation in
            organisation.roles.map { "\(organisation.slug):\($0.rawValue)" }
        }
        return Access(roles: Set(roles), providers: Set(try await store.identityProviders(userID: userID)))
    }

    private struct Access: CustomStringConvertible {
        let roles: Set<String>
        let providers: Set<String>

        func union(_ other: Access) -> Access {
            Access(roles: roles.union(other.roles), providers: providers.union(other.providers))
        }

        /// `roles=nhf:org_admin,nhf:peer_mentor providers=bankid,vipps`
        var description: String {
            "roles=\(roles.sorted().joined(separator: ",")) providers=\(providers.sorted().joined(separator: ","))"
        }
    }
}
