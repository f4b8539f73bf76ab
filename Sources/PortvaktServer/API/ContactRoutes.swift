import Foundation
import Hummingbird
import PortvaktCore
import PortvaktHTTP
import PortvaktStorage

/// The people peer mentors support. `GET /v1/contacts[?organisation=slug]` lists names only;
/// `GET /v1/contacts/{id}` opens the sealed details, and only behind a fresh biometric step-up
/// for `contacts.read` (each opening is audited). Coordinators and administrators add contacts
/// with `POST /v1/contacts`.
struct ContactRoutes {
    let broker: Broker

    func register(on router: Router<PortvaktRequestContext>) {
        router.get("/v1/contacts") { request, context in
            let caller = try context.caller()
            let listed = try await caller.visibleRows(in: try request.queryFields()["organisation"]) { organisation, scope in
                try await broker.store.contacts(scope).map { ContactInfo($0, organisation: organisation.slug, details: nil) }
            }
            return try APIResponse.json(["contacts": listed])
        }
        router.get("/v1/contacts/:id") { request, context in
            let caller = try context.caller()
            guard let contact = try await broker.store.contact(id: context.parameters.get("id") ?? ""),
                  caller.maySee(organisationID: contact.organisationId, owner: contact.assignedUserId),
                  let organisation = caller.organisations.first(where: { $0.organisationID == contact.organisationId })
            else { throw OAuthFailure.notFound("contact") }
            let details = try JSONDecoder().decode(
                ContactDetails.self, from: try broker.keys.cipher.open(contact.details, context: Contact.detailsContext(contactID: contact.id))
            )
            try await broker.store.append(AuditEvent(
                occurredAt: broker.now(), action: "contact.details_read", outcome: "success", actorUserID: UUID(uuidString: caller.userID),
                organisationID: UUID(uuidString: contact.organisationId), subjectType: "contact", subjectID: contact.id
            ))
            return try APIResponse.json(ContactInfo(contact, organisation: organisation.slug, details: details))
        }
        router.post("/v1/contacts") { request, context in
            try await create(request, context)
        }
    }

    private func create(_ request: Request, _ context: PortvaktRequestContext) async throws -> Response {
        let caller = try context.caller()
        let body = try await request.decodeJSON(NewContact.self)
        let organisation = try caller.organisation(body.organisation)
        try caller.require([.coordinator, .orgAdmin], in: organisation)
        let name = body.displayName.trimmingCharacters(in: .whitespaces)
        guard (1...120).contains(name.count), body.details.isWithinLimits else {
            throw OAuthFailure.invalidRequest("display_name must be 1 to 120 characters; each detail at most 500.")
        }
        if let assignee = body.assignedTo {
            let roles = try await broker.store.organisationRoles(userID: assignee)
            guard roles.contains(where: { $0.organisationID == organisation.organisationID }) else {
                throw OAuthFailure.invalidRequest("assigned_to must be a member of the organisation.")
            }
        }
        let details = try JSONEncoder().encode(body.details)
        let contact = try await broker.store.createContact(
            organisationID: organisation.organisationID, assignedUserID: body.assignedTo, displayName: name, createdBy: caller.userID,
            details: { id in try broker.keys.cipher.seal(details, context: Contact.detailsContext(contactID: id)) }, now: broker.now()
        )
        return try APIResponse.json(ContactInfo(contact, organisation: organisation.slug, details: nil), status: .created)
    }
}

/// What is sealed: how to reach the person and what the peer mentor should know.
private struct ContactDetails: Codable {
    let phone: String?
    let address: String?
    let note: String?

    var isWithinLimits: Bool { [phone, address, note].allSatisfy { ($0?.count ?? 0) <= 500 } }
}

private struct NewContact: Decodable {
    let organisation: String
    let displayName: String
    let assignedTo: String?
    let details: ContactDetails

    enum CodingKeys: String, CodingKey {
        case organisation, details
        case displayName = "display_name"
        case assignedTo = "assigned_to"
    }
}

private struct ContactInfo: Encodable {
    let id: String
    let organisation: String
    let displayName: String
    let assignedTo: String?
    let details: ContactDetails?

    init(_ contact: Contact, organisation: String, details: ContactDetails?) {
        id = contact.id
        self.organisation = organisation
        displayName = contact.displayName
        assignedTo = contact.assignedUserId
        self.details = details
    }
}
