import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// - Parameter seal: seals the details for the new row's id.
    public func createContact(
        organisationID: String, assignedUserID: String?, displayName: String, createdBy: String?,
        details seal: (_ contactID: String) throws -> SealedValue, now: Date = Date()
    ) async throws -> Contact {
        let id = newID()
        let sealed = try seal(id)
        let contact = Contact(
            id: id, organisationId: organisationID, assignedUserId: assignedUserID, displayName: displayName,
            detailsSealed: sealed.combined, detailsKeyId: sealed.keyID, createdBy: createdBy, createdAt: now.millisecondsSince1970
        )
        try await write { db in try await db.insert(into: "contacts").row(contact).run() }
        return contact
    }

    public func contact(id: String) async throws -> Contact? {
        try await read { db in
            try await db.select().column("*").from("contacts").where("id", .equal, id).first(as: Contact.self)
        }
    }

    /// By name.
    public func contacts(_ scope: RowScope) async throws -> [Contact] {
        try await read { db in
            try await scope.apply(db.select().column("*").from("contacts"), userColumn: "assigned_user_id")
                .orderBy("display_name").orderBy("id").all(as: Contact.self)
        }
    }
}
