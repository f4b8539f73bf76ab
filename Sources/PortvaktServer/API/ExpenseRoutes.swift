import Foundation
import Hummingbird
import PortvaktCore
import PortvaktHTTP
import PortvaktStorage

/// `POST /v1/expenses` submits an expense claim: behind a fresh biometric step-up for
/// `expenses.submit`, with an `Idempotency-Key`. `GET /v1/expenses[?organisation=slug]` lists
/// what the caller may see.
struct ExpenseRoutes {
    let broker: Broker

    func register(on router: Router<PortvaktRequestContext>) {
        router.post("/v1/expenses") { request, context in
            try await submit(request, context)
        }
        router.get("/v1/expenses") { request, context in
            let caller = try context.caller()
            let listed = try await caller.visibleRows(in: try request.queryFields()["organisation"]) { organisation, scope in
                try await broker.store.expenseClaims(scope).map { ExpenseInfo($0, organisation: organisation.slug) }
            }
            return try APIResponse.json(["expenses": listed])
        }
    }

    private func submit(_ request: Request, _ context: PortvaktRequestContext) async throws -> Response {
        let caller = try context.caller()
        let key = try IdempotencyKey(request)
        let body = try await request.decodeJSON(NewExpense.self, multiline: ["description"])
        let organisation = try caller.organisation(body.organisation)
        guard (1...10_000_000).contains(body.amountOre), (1...500).contains(body.description.count) else {
            throw OAuthFailure.invalidRequest("amount_ore must be 1 to 10 000 000 and description 1 to 500 characters.")
        }
        let write = try await broker.store.submitExpenseClaim(ExpenseClaim(
            organisationID: organisation.organisationID, userID: caller.userID, amountOre: body.amountOre, description: body.description,
            idempotencyKey: key.value, requestHash: try IdempotencyKey.requestHash(body), now: broker.now()
        ))
        if case .created(let claim) = write {
            try await broker.store.append(AuditEvent(
                occurredAt: broker.now(), action: "expense.submitted", outcome: "success", actorUserID: UUID(uuidString: caller.userID),
                organisationID: UUID(uuidString: organisation.organisationID), subjectType: "expense_claim", subjectID: claim.id
            ))
        }
        return try IdempotencyKey.response(write) { ExpenseInfo($0, organisation: organisation.slug) }
    }
}

private struct NewExpense: Codable {
    let organisation: String
    let amountOre: Int64
    let description: String

    enum CodingKeys: String, CodingKey {
        case organisation, description
        case amountOre = "amount_ore"
    }
}

private struct ExpenseInfo: Encodable {
    let id: String
    let organisation: String
    let userId: String
    let amountOre: Int64
    let description: String
    let createdAt: String

    init(_ claim: ExpenseClaim, organisation: String) {
        id = claim.id
        self.organisation = organisation
        userId = claim.userId
        amountOre = claim.amountOre
        description = claim.description
        createdAt = Date(millisecondsSince1970: claim.createdAt).formatted(.iso8601)
    }
}
