/// `POST /v1/activities` (with an `Idempotency-Key`): an activity to log.
public struct NewActivity: Codable, Sendable, Hashable {
    /// The organisation's slug.
    public let organisation: String
    public let kind: String
    /// ISO 8601.
    public let occurredAt: String
    public let durationMinutes: Int
    public let note: String?
    public let contactId: String?

    public init(organisation: String, kind: String, occurredAt: String, durationMinutes: Int, note: String?, contactId: String? = nil) {
        self.organisation = organisation
        self.kind = kind
        self.occurredAt = occurredAt
        self.durationMinutes = durationMinutes
        self.note = note
        self.contactId = contactId
    }

    enum CodingKeys: String, CodingKey {
        case organisation, kind, occurredAt = "occurred_at", durationMinutes = "duration_minutes", note, contactId = "contact_id"
    }
}

/// A logged activity, as `POST /v1/activities` answers and `GET /v1/activities` lists it.
public struct ActivityInfo: Codable, Sendable, Hashable {
    public let id: String
    /// The organisation's slug.
    public let organisation: String
    public let userId: String
    public let kind: String
    /// ISO 8601.
    public let occurredAt: String
    public let durationMinutes: Int
    public let note: String?
    public let contactId: String?
    /// ISO 8601.
    public let createdAt: String

    public init(
        id: String, organisation: String, userId: String, kind: String, occurredAt: String, durationMinutes: Int, note: String?, contactId: String?,
        createdAt: String
    ) {
        self.id = id
        self.organisation = organisation
        self.userId = userId
        self.kind = kind
        self.occurredAt = occurredAt
        self.durationMinutes = durationMinutes
        self.note = note
        self.contactId = contactId
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, organisation, userId = "user_id", kind, occurredAt = "occurred_at", durationMinutes = "duration_minutes", note
        case contactId = "contact_id", createdAt = "created_at"
    }
}

/// `GET /v1/activities[?organisation=slug]`.
public struct ActivityList: Codable, Sendable, Hashable {
    public let activities: [ActivityInfo]

    public init(activities: [ActivityInfo]) {
        self.activities = activities
    }
}
