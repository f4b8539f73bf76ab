import Foundation
import PortvaktModels
import SQLKit

/// Version 30: the sessions a passkey opened before version 26 name no passkey, so removing the
/// passkey could not end them (review IV, L1). They end now, once: their people sign in again.
/// The ACR values are the domain's (`Authentication.passkeyACR`, `.passkeyUntrustedACR`), written
/// out because storage does not depend on the domain.
enum PasskeySessionsBeforeV26 {
    static let passkeyACRs = ["urn:portvakt:acr:passkey", "urn:portvakt:acr:passkey-sign-in"]

    static func apply(_ db: any SQLDatabase) async throws {
        try await db.update("sessions")
            .set("revoked_at", to: Date().millisecondsSince1970).set("revoked_reason", to: "passkey_unknown")
            .where("revoked_at", .is, SQLLiteral.null).where("passkey_id", .is, SQLLiteral.null)
            .where("acr", .in, passkeyACRs)
            .run()
    }
}
