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

    /// Sets `parts` of the organisation's brand (nil unsets one), the others as they were, with
    /// its audit event, in one transaction; the brand's row is made when it has none.
    public func updateOrganisationBrand(organisationID: String, parts: [BrandPart: String?], updatedAt: Int64, audit: AuditEvent) async throws -> OrganisationBrand {
        try await write { db in
            try await db.insert(into: "organisation_brands").columns("organisation_id", "updated_at").values(SQLBind(organisationID), SQLBind(updatedAt))
                .ignoringConflicts(with: ["organisation_id"]).run()
            var update = db.update("organisation_brands").set("updated_at", to: updatedAt)
            for (part, value) in parts.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                update = if let value { update.set(part.column, to: value) } else { update.set(SQLColumn(part.column), to: SQLLiteral.null) }
            }
            try await update.where("organisation_id", .equal, organisationID).run()
            try await Self.append(audit, in: db, keys: auditKeys)
            guard let brand = try await db.select().column("*").from("organisation_brands").where("organisation_id", .equal, organisationID)
                .first(as: OrganisationBrand.self) else { throw StoreError.notFound("organisation_brands") }
            return brand
        }
    }
}
