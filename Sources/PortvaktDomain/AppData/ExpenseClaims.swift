import Foundation
import PortvaktCore
import PortvaktModels

/// Expense claims (travel, materials) in øre. Submitting one needs the device-key step-up for
/// ``SensitiveAction/expensesSubmit`` (``ActionPolicy``), and is audited.
public struct ExpenseClaims: Sendable {
    let store: any AppDataStore
    let now: @Sendable () -> Date

    public init(store: any AppDataStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    public func list(in slug: String?, by actor: Actor) async throws -> [InOrganisation<ExpenseClaim>] {
        try await actor.visibleRows(in: slug) { organisation, scope in
            try await store.expenseClaims(scope, limit: 200).map { InOrganisation(row: $0, organisation: organisation.slug) }
        }
    }

    /// Submits a claim once per key.
    /// - Throws: ``DomainError``: the step-up, not a member there, an invalid amount or description.
    public func submit(organisation slug: String, amountOre: Int64, description: String, key: WriteKey, by actor: Actor) async throws
        -> IdempotentWrite<InOrganisation<ExpenseClaim>> {
        let organisation = try actor.organisation(slug)
        try actor.authorize(.expensesSubmit, in: organisation, at: now())
        guard (1...10_000_000).contains(amountOre), (1...500).contains(description.count) else {
            throw DomainError.invalidInput("amount_ore must be 1 to 10 000 000 and description 1 to 500 characters.")
        }
        let write = try await store.submitExpenseClaim(ExpenseClaim(
            organisationID: organisation.organisationID, userID: actor.userID, amountOre: amountOre, description: description,
            idempotencyKey: key.value, requestHash: key.requestHash, now: now()
        ))
        if case .created(let claim) = write {
            try await store.append(AuditEvent(
                occurredAt: now(), action: .expenseSubmitted, outcome: "success", actorUserID: UUID(uuidString: actor.userID),
                organisationID: UUID(uuidString: organisation.organisationID), subjectType: "expense_claim", subjectID: claim.id
            ))
        }
        return write.map { InOrganisation(row: $0, organisation: organisation.slug) }
    }
}
