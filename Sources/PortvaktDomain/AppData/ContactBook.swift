import Foundation
import PortvaktProtocol
import PortvaktCore
import PortvaktModels

/// The people peer mentors support. Names are listed to whoever may see the row; the sealed
/// details open only behind the device-key step-up for ``SensitiveAction/contactsRead``, each
/// opening audited. Coordinators and administrators add contacts.
public struct ContactBook: Sendable {
    let store: any AppDataStore
    let cipher: FieldCipher
    let now: @Sendable () -> Date

    public init(store: any AppDataStore, cipher: FieldCipher, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.cipher = cipher
        self.now = now
    }

    /// Who may add contacts in an organisation.
    public static let editors: Set<Role> = [.coordinator, .orgAdmin]

    /// What is sealed: how to reach the person and what the peer mentor should know (the wire's
    /// `details`, sealed as it arrives).
    public typealias Details = ContactDetails

    public func list(in slug: String?, by actor: Actor) async throws -> [InOrganisation<Contact>] {
        try await actor.visibleRows(in: slug) { organisation, scope in
            try await store.contacts(scope).map { InOrganisation(row: $0, organisation: organisation.slug) }
        }
    }

    /// The contact with its details opened, audited `contact.details_read`.
    /// - Throws: ``DomainError``: the step-up first, then not found (also for a row the actor may not see).
    public func open(_ id: String, by actor: Actor) async throws -> (contact: InOrganisation<Contact>, details: Details) {
        guard actor.satisfies(.contactsRead, at: now()) else { throw DomainError.stepUpRequired(.contactsRead) }
        guard id.utf8.count <= 64, let contact = try await store.contact(id: id),
              actor.maySee(organisationID: contact.organisationId, owner: contact.assignedUserId),
              let organisation = actor.organisations.first(where: { $0.organisationID == contact.organisationId })
        else { throw DomainError.notFound("contact") }
        let details = try JSONDecoder().decode(Details.self, from: try cipher.open(contact.details, context: Contact.detailsContext(contactID: contact.id)))
        try await store.append(AuditEvent(
            occurredAt: now(), action: .contactDetailsRead, outcome: "success", actorUserID: UUID(uuidString: actor.userID),
            organisationID: UUID(uuidString: contact.organisationId), subjectType: "contact", subjectID: contact.id
        ))
        return (InOrganisation(row: contact, organisation: organisation.slug), details)
    }

    /// Adds a contact, its details sealed for its row.
    /// - Throws: ``DomainError``: not a member there, not an editor, an invalid name or detail, an assignee from elsewhere.
    public func add(organisation slug: String, displayName: String, assignedTo: String?, details: Details, by actor: Actor) async throws
        -> InOrganisation<Contact> {
        let organisation = try actor.organisation(slug)
        try actor.require(Self.editors, in: organisation)
        let name = displayName.trimmingCharacters(in: .whitespaces)
        guard (1...120).contains(name.count), details.isWithinLimits else {
            throw DomainError.invalidInput("display_name must be 1 to 120 characters; each detail at most 500.")
        }
        if let assignee = assignedTo {
            let roles = try await store.organisationRoles(userID: assignee)
            guard roles.contains(where: { $0.organisationID == organisation.organisationID }) else {
                throw DomainError.invalidInput("assigned_to must be a member of the organisation.")
            }
        }
        let sealed = try JSONEncoder().encode(details)
        let contact = try await store.createContact(
            organisationID: organisation.organisationID, assignedUserID: assignedTo, displayName: name, createdBy: actor.userID,
            details: { id in try cipher.seal(sealed, context: Contact.detailsContext(contactID: id)) }, now: now()
        )
        return InOrganisation(row: contact, organisation: organisation.slug)
    }
}

extension ContactDetails {
    var isWithinLimits: Bool { [phone, address, note].allSatisfy { ($0?.count ?? 0) <= 500 } }
}
