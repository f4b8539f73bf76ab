import Foundation

/// An expense claim (travel, materials) a member submits to their organisation, in øre.
public struct ExpenseClaim: IdempotentRow, Hashable {
    public let id: String
    public let organisationId: String
    public let userId: String
    public let amountOre: Int64
    public let description: String
    public let idempotencyKey: String
    public let requestHash: Data
    public let createdAt: Int64

    public init(organisationID: String, userID: String, amountOre: Int64, description: String, idempotencyKey: String, requestHash: Data, now: Date) {
        id = newID()
        organisationId = organisationID
        userId = userID
        self.amountOre = amountOre
        self.description = description
        self.idempotencyKey = idempotencyKey
        self.requestHash = requestHash
        createdAt = now.millisecondsSince1970
    }
}
