import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktProtocol
import PortvaktStorage

/// `POST /v1/expenses` submits an expense claim: behind a fresh biometric step-up for
/// `expenses.submit`, with an `Idempotency-Key`. `GET /v1/expenses[?organisation=slug]` lists
/// what the caller may see.
struct ExpenseRoutes {
    let expenses: ExpenseClaims

    func register(on routes: DeclaredRoutes) {
        routes.post("/v1/expenses", .member.taking(.expensesSubmit), surface: .json) { request, context in
            try await submit(request, context)
        }
        routes.get("/v1/expenses", .member, surface: .json) { request, context in
            let listed = try await expenses.list(in: try request.queryFields()["organisation"], by: try context.caller().actor)
            return try APIResponse.json(ExpenseList(expenses: listed.map { ExpenseInfo($0) }))
        }
    }

    private func submit(_ request: Request, _ context: PortvaktRequestContext) async throws -> Response {
        let caller = try context.caller()
        let key = try IdempotencyKey(request)
        let body = try await request.decodeJSON(NewExpense.self, multiline: ["description"])
        let write = try await expenses.submit(
            organisation: body.organisation, amountOre: body.amountOre, description: body.description, key: try key.writeKey(for: body), by: caller.actor
        )
        return try IdempotencyKey.response(write) { ExpenseInfo($0) }
    }
}

extension ExpenseInfo {
    init(_ listed: InOrganisation<ExpenseClaim>) {
        let claim = listed.row
        self.init(
            id: claim.id, organisation: listed.organisation, userId: claim.userId, amountOre: claim.amountOre, description: claim.description,
            createdAt: Date(millisecondsSince1970: claim.createdAt).formatted(.iso8601)
        )
    }
}
