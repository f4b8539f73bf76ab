import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktProtocol
import PortvaktStorage

/// The people peer mentors support (``ContactBook``). `GET /v1/contacts[?organisation=slug]`
/// lists names only; `GET /v1/contacts/{id}` opens the sealed details, only behind a fresh
/// biometric step-up for `contacts.read` (each opening is audited). Coordinators and
/// administrators add contacts with `POST /v1/contacts`.
struct ContactRoutes {
    let contacts: ContactBook

    func register(on routes: DeclaredRoutes) {
        routes.get("/v1/contacts", .member, surface: .json) { request, context in
            let listed = try await contacts.list(in: try request.queryFields()["organisation"], by: try context.caller().actor)
            return try APIResponse.json(ContactList(contacts: listed.map { ContactInfo($0, details: nil) }))
        }
        routes.get("/v1/contacts/:id", .member.taking(.contactsRead), surface: .json) { _, context in
            let opened = try await contacts.open(context.parameters.get("id") ?? "", by: try context.caller().actor)
            return try APIResponse.json(ContactInfo(opened.contact, details: opened.details))
        }
        routes.post("/v1/contacts", .member, surface: .json) { request, context in
            let caller = try context.caller()
            let body = try await request.decodeJSON(NewContact.self)
            let contact = try await contacts.add(
                organisation: body.organisation, displayName: body.displayName, assignedTo: body.assignedTo, details: body.details, by: caller.actor
            )
            return try APIResponse.json(ContactInfo(contact, details: nil), status: .created)
        }
    }
}

extension ContactInfo {
    init(_ listed: InOrganisation<Contact>, details: ContactDetails?) {
        self.init(
            id: listed.row.id, organisation: listed.organisation, displayName: listed.row.displayName, assignedTo: listed.row.assignedUserId,
            details: details
        )
    }
}
