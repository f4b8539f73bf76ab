import Foundation

/// Something a peer mentor did and logs: a visit, a call, a meeting. Times are Unix milliseconds.
public struct Activity: IdempotentRow, Hashable {
    public let id: String
    public let organisationId: String
    public let userId: String
    public let kind: String
    public let occurredAt: Int64
    public let durationMinutes: Int
    public let note: String?
    public let contactId: String?
    public let idempotencyKey: String
    public let requestHash: Data
    public let createdAt: Int64

    public init(
        organisationID: String, userID: String, kind: String, occurredAt: Date, durationMinutes: Int, note: String?,
        contactID: String?, idempotencyKey: String, requestHash: Data, now: Date
    ) {
        id = newID()
        organisationId = organisationID
        userId = userID
        self.kind = kind
        self.occurredAt = occurredAt.millisecondsSince1970
        self.durationMinutes = durationMinutes
        self.note = note
        contactId = contactID
        self.idempotencyKey = idempotencyKey
        self.requestHash = requestHash
        createdAt = now.millisecondsSince1970
    }
}
