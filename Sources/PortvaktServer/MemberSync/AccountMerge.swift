import Foundation
import PortvaktCore
import PortvaktStorage

/// Merging two accounts of one person (an administrator found a duplicate): the kept account
/// gets the other's provider accounts, roles, devices and data; the kept personnummer stays, or
/// the removed one's is taken when the kept account has none.
struct AccountMerge: Sendable {
    let store: PortvaktStore
    let vault: PersonnummerVault

    func merge(keep: String, remove: String, by actor: String?, source: String, now: Date) async throws {
        guard keep != remove, let kept = try await store.user(id: keep), let removed = try await store.user(id: remove) else {
            throw StoreError.notFound("users")
        }
        var personnummer: ProtectedPersonnummer?
        if kept.personnummer == nil, let sealed = removed.personnummer?.sealed {
            personnummer = try vault.protect(try vault.open(sealed, record: "user:\(remove)"), record: "user:\(keep)")
        }
        try await store.mergeUsers(keep: keep, remove: remove, personnummer: personnummer, audit: AuditEvent(
            occurredAt: now, action: "user.merged", outcome: "success", actorUserID: actor.flatMap(UUID.init(uuidString:)),
            subjectType: "user", subjectID: keep, source: source, details: ["removed": remove]
        ))
    }
}
