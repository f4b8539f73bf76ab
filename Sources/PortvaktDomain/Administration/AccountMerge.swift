import Foundation
import PortvaktCore
import PortvaktModels

/// What merging two accounts reads and writes.
public protocol AccountMergeStore: Sendable {
    func user(id: String) async throws -> User?
    func organisationRoles(userID: String) async throws -> [OrganisationRoles]
    func memberOrganisationIDs(userID: String) async throws -> Set<String>
    func identityProviders(userID: String) async throws -> [String]
    func mergeUsers(keep keepID: String, remove removeID: String, personnummer: ProtectedPersonnummer?, confinedTo organisationID: String?, audit: AuditEvent) async throws
}

/// Merging two accounts of one person (an administrator found a duplicate): the kept account
/// gets the other's provider accounts, roles, devices and data; the kept personnummer stays, or
/// the removed one's is taken when the kept account has none.
///
/// A merge moves logins and roles, so an administrator's merge must never widen anyone's access:
/// both accounts must be members of the administrator's organisation and of no other, and
/// neither may be the administrator's own (docs/login-flows.md, "Merging accounts"). The operator's
/// `portvakt-server merge-users` is not bound by an organisation.
public struct AccountMerge: Sendable {
    let store: any AccountMergeStore
    let vault: PersonnummerVault
    let now: @Sendable () -> Date

    public init(store: any AccountMergeStore, vault: PersonnummerVault, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.vault = vault
        self.now = now
    }

    /// An organisation administrator's merge: the policy (``SensitiveAction/accountsMerge``: an
    /// administrator there, BankID or Vipps within 5 minutes) first, then refused unless it stays
    /// inside their organisation.
    /// - Throws: ``DomainError``: not allowed, a step-up, one of the merge refusals,
    ///   ``DomainError/mergeAccountGone`` or ``DomainError/mergeDuplicateData``.
    public func mergeAsAdministrator(keep: String, remove: String, in organisation: OrganisationRoles, by actor: Actor) async throws {
        try actor.authorize(.accountsMerge, in: organisation, at: now())
        if let refusal = try await refusal(keep: keep, remove: remove, adminID: actor.userID, organisationID: organisation.organisationID) { throw refusal }
        do {
            try await merge(keep: keep, remove: remove, by: actor.userID, source: "admin-review", organisationID: organisation.organisationID)
        } catch let error as StoreError where error.isDuplicate {
            throw DomainError.mergeDuplicateData
        } catch let error as StoreError where error.isNotFound {
            throw DomainError.mergeAccountGone
        } catch let error as StoreError where error.isConstraint {
            // A membership elsewhere appeared (or a suspension there) after the check above.
            throw DomainError.mergeOtherOrganisation
        }
    }

    /// Why an administrator may not merge these accounts; nil when they may (the preview asks).
    public func refusal(keep: String, remove: String, adminID: String, organisationID: String) async throws -> DomainError? {
        guard keep != remove else { return .mergeSameAccount }
        guard adminID != keep, adminID != remove else { return .mergeOwnAccount }
        for account in [keep, remove] {
            if try await store.user(id: account)?.disabledAt != nil { return .mergeAccountDisabled }
            // A suspended membership counts: lifting it gives it back to the kept account.
            let organisations = try await store.memberOrganisationIDs(userID: account)
            guard organisations.contains(organisationID) else { return .mergeNotMembers }
            guard organisations == [organisationID] else { return .mergeOtherOrganisation }
        }
        return nil
    }

    /// Merges without an organisation's bounds (the operator's command); audits both accounts'
    /// roles and provider accounts before, and the kept account's after.
    public func merge(keep: String, remove: String, by actor: String?, source: String, organisationID: String? = nil) async throws {
        let now = now()
        guard keep != remove, let kept = try await store.user(id: keep), let removed = try await store.user(id: remove) else {
            throw StoreError.notFound("users")
        }
        guard kept.disabledAt == nil, removed.disabledAt == nil else { throw DomainError.mergeAccountDisabled }
        var personnummer: ProtectedPersonnummer?
        if kept.personnummer == nil, let sealed = removed.personnummer?.sealed {
            personnummer = try vault.protect(try vault.open(sealed, record: User.personnummerRecord(userID: remove)), record: User.personnummerRecord(userID: keep))
        }
        let keptBefore = try await access(of: keep)
        let removedBefore = try await access(of: remove)
        try await store.mergeUsers(keep: keep, remove: remove, personnummer: personnummer, confinedTo: organisationID, audit: AuditEvent(
            occurredAt: now, action: .userMerged, outcome: "success", actorUserID: actor.flatMap(UUID.init(uuidString:)),
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
