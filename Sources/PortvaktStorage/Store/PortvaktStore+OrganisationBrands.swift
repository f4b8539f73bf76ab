import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    public func organisationBrand(organisationID: String) async throws -> OrganisationBrand? {
        try await read { db in
            try await db.select().column("*").from("organisation_brands").where("organisation_id", .equal, organisationID).first(as: OrganisationBrand.self)
        }
    }

    /// Replaces the organisation's brand, with its audit event, in one transaction.
    public func saveOrganisationBrand(_ brand: OrganisationBrand, audit: AuditEvent) async throws {
        try await write { db in
            try await db.delete(from: "organisation_brands").where("organisation_id", .equal, brand.organisationId).run()
            try await db.insert(into: "organisation_brands").row(brand).run()
            try await Self.append(audit, in: db, keys: auditKeys)
        }
    }
}
