/// `POST /v1/expenses` (behind an `expenses.submit` step-up, with an `Idempotency-Key`): an expense claim.
public struct NewExpense: Codable, Sendable, Hashable {
    /// The organisation's slug.
    public let organisation: String
    public let amountOre: Int64
    public let description: String

    public init(organisation: String, amountOre: Int64, description: String) {
        self.organisation = organisation
        self.amountOre = amountOre
        self.description = description
    }

    enum CodingKeys: String, CodingKey {
        case organisation, amountOre = "amount_ore", description
    }
}

/// A submitted expense claim, as `POST /v1/expenses` answers and `GET /v1/expenses` lists it.
public struct ExpenseInfo: Codable, Sendable, Hashable {
    public let id: String
    /// The organisation's slug.
    public let organisation: String
    public let userId: String
    public let amountOre: Int64
    public let description: String
    /// ISO 8601.
    public let createdAt: String

    public init(id: String, organisation: String, userId: String, amountOre: Int64, description: String, createdAt: String) {
        self.id = id
        self.organisation = organisation
        self.userId = userId
        self.amountOre = amountOre
        self.description = description
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, organisation, userId = "user_id", amountOre = "amount_ore", description, createdAt = "created_at"
    }
}

/// `GET /v1/expenses[?organisation=slug]`.
public struct ExpenseList: Codable, Sendable, Hashable {
    public let expenses: [ExpenseInfo]

    public init(expenses: [ExpenseInfo]) {
        self.expenses = expenses
    }
}
