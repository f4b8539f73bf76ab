import Foundation
import PortvaktCore
import PortvaktModels

/// What peer mentors log: a visit, a call, a meeting. A member logs in their own name in an
/// organisation they belong to, about a contact they may see; each sees the activities their
/// role allows (``Actor/scope(in:)``).
public struct ActivityLog: Sendable {
    let store: any AppDataStore
    let now: @Sendable () -> Date

    public init(store: any AppDataStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// What a member logs.
    public struct Entry: Sendable {
        public var organisation: String
        public var kind: String
        public var occurredAt: String
        public var durationMinutes: Int
        public var note: String?
        public var contactID: String?

        public init(organisation: String, kind: String, occurredAt: String, durationMinutes: Int, note: String?, contactID: String?) {
            self.organisation = organisation
            self.kind = kind
            self.occurredAt = occurredAt
            self.durationMinutes = durationMinutes
            self.note = note
            self.contactID = contactID
        }
    }

    public func list(in slug: String?, by actor: Actor) async throws -> [InOrganisation<Activity>] {
        try await actor.visibleRows(in: slug) { organisation, scope in
            try await store.activities(scope, limit: 200).map { InOrganisation(row: $0, organisation: organisation.slug) }
        }
    }

    /// Logs `entry` once per key.
    /// - Throws: ``DomainError``: not a member there, an invalid field, a contact the actor may not see.
    public func log(_ entry: Entry, key: WriteKey, by actor: Actor) async throws -> IdempotentWrite<InOrganisation<Activity>> {
        let organisation = try actor.organisation(entry.organisation)
        guard let occurredAt = try? Date(entry.occurredAt, strategy: .iso8601) else {
            throw DomainError.invalidInput("occurred_at must be an ISO 8601 time, such as 2026-11-21T09:30:00Z.")
        }
        guard (1...64).contains(entry.kind.count), (1...1440).contains(entry.durationMinutes), (entry.note?.count ?? 0) <= 2000 else {
            throw DomainError.invalidInput("kind must be 1 to 64 characters, duration_minutes 1 to 1440, note at most 2000 characters.")
        }
        if let contactID = entry.contactID {
            guard contactID.utf8.count <= 64, let contact = try await store.contact(id: contactID), contact.organisationId == organisation.organisationID,
                  actor.maySee(organisationID: contact.organisationId, owner: contact.assignedUserId)
            else { throw DomainError.notFound("contact") }
        }
        let write = try await store.createActivity(Activity(
            organisationID: organisation.organisationID, userID: actor.userID, kind: entry.kind, occurredAt: occurredAt,
            durationMinutes: entry.durationMinutes, note: entry.note, contactID: entry.contactID,
            idempotencyKey: key.value, requestHash: key.requestHash, now: now()
        ))
        return write.map { InOrganisation(row: $0, organisation: organisation.slug) }
    }
}

extension IdempotentWrite {
    func map<T: Sendable>(_ transform: (Row) -> T) -> IdempotentWrite<T> {
        switch self {
        case .created(let row): .created(transform(row))
        case .replayed(let row): .replayed(transform(row))
        case .keyReused: .keyReused
        }
    }
}
