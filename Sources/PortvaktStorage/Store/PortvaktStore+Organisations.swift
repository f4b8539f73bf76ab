import Foundation
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// - Throws: ``StoreError/duplicate(_:)`` when the slug is taken.
    public func createOrganisation(slug: String, name: String, now: Date = Date()) async throws -> Organisation {
        let organisation = Organisation(id: newID(), slug: slug, name: name, createdAt: now.millisecondsSince1970)
        try await write { db in try await db.insert(into: "organisations").row(organisation).run() }
        return organisation
    }

    public func organisation(slug: String) async throws -> Organisation? {
        try await read { db in
            try await db.select().column("*").from("organisations").where("slug", .equal, slug).first(as: Organisation.self)
        }
    }

    public func organisation(id: String) async throws -> Organisation? {
        try await read { db in
            try await db.select().column("*").from("organisations").where("id", .equal, id).first(as: Organisation.self)
        }
    }

    public func organisations() async throws -> [Organisation] {
        try await read { db in
            try await db.select().column("*").from("organisations").orderBy("slug").all(as: Organisation.self)
        }
    }
}
