import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

extension PortvaktStore {
    /// Stores a new token with its audit event, in one transaction.
    /// - Throws: ``StoreError/duplicate(_:)`` when the organisation has a live token of this name;
    ///   ``StoreError/missingReference(_:)`` when there is no such organisation.
    public func insertSCIMToken(_ token: SCIMToken, audit: AuditEvent) async throws {
        try await write { db in
            try await db.insert(into: "scim_tokens").row(token).run()
            try await Self.append(audit, in: db, keys: auditKeys)
        }
    }

    /// Revokes the organisation's live token of this name, with its audit event.
    /// - Returns: the revoked token; nil when there is no live token of that name.
    public func revokeSCIMToken(organisationID: String, name: String, audit: @escaping @Sendable (SCIMToken) -> AuditEvent, now: Date = Date()) async throws -> SCIMToken? {
        try await write { db in
            guard let token = try await db.update("scim_tokens").set("revoked_at", to: now.millisecondsSince1970)
                .where("organisation_id", .equal, organisationID).where("name", .equal, name).where("revoked_at", .is, SQLLiteral.null)
                .returning(SQLLiteral.all).first(as: SCIMToken.self)
            else { return nil }
            try await Self.append(audit(token), in: db, keys: auditKeys)
            return token
        }
    }

    /// The organisation's tokens, revoked ones too, by name.
    public func scimTokens(organisationID: String) async throws -> [SCIMToken] {
        try await read { db in
            try await db.select().column("*").from("scim_tokens").where("organisation_id", .equal, organisationID)
                .orderBy("name").orderBy("created_at").all(as: SCIMToken.self)
        }
    }

    /// The live (not revoked) token with this hash.
    public func scimToken(hash: Data) async throws -> SCIMToken? {
        try await read { db in
            try await db.select().column("*").from("scim_tokens").where("token_hash", .equal, hash).where("revoked_at", .is, SQLLiteral.null)
                .first(as: SCIMToken.self)
        }
    }

    /// Notes when the token was last used.
    public func markSCIMTokenUsed(id: String, now: Date = Date()) async throws {
        try await writeAlone { db in
            try await db.update("scim_tokens").set("last_used_at", to: now.millisecondsSince1970).where("id", .equal, id).run()
        }
    }
}
