import Foundation
import PortvaktCore
import PortvaktModels
import SQLKit

/// What people let third-party clients have (``Consent``), with the audit event of each change.
extension PortvaktStore {
    public func consent(userID: String, clientID: String) async throws -> Consent? {
        try await read { db in
            try await db.select().column("*").from("consents").where("user_id", .equal, userID).where("client_id", .equal, clientID).first(as: Consent.self)
        }
    }

    /// The person's consents, newest first (My account's "Applications").
    public func consents(userID: String) async throws -> [Consent] {
        try await read { db in
            try await db.select().column("*").from("consents").where("user_id", .equal, userID).orderBy("granted_at", .descending).all(as: Consent.self)
        }
    }

    /// Records a consent (replacing the person's earlier one for that client) with its audit event.
    public func grantConsent(_ consent: Consent, audit: AuditEvent) async throws {
        try await write { db in
            try await db.delete(from: "consents").where("user_id", .equal, consent.userId).where("client_id", .equal, consent.clientId).run()
            try await db.insert(into: "consents").row(consent).run()
            try await append(audit, in: db)
        }
    }

    /// Withdraws a consent and ends the client's sessions of that person (each told over the back
    /// channel when it asked), with the audit event; false when there was none.
    public func revokeConsent(userID: String, clientID: String, audit: AuditEvent, now: Date = Date()) async throws -> Bool {
        try await write { db in
            guard try await db.delete(from: "consents").where("user_id", .equal, userID).where("client_id", .equal, clientID)
                .returning("client_id").first() != nil
            else { return false }
            try await db.update("sessions").set("revoked_at", to: now.millisecondsSince1970).set("revoked_reason", to: "consent_withdrawn")
                .where("user_id", .equal, userID).where("client_id", .equal, clientID).where("revoked_at", .is, SQLLiteral.null).run()
            try await append(audit, in: db)
            return true
        }
    }
}
