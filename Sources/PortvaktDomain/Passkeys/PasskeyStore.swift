import Foundation
import PortvaktCore
import PortvaktModels

/// What ``Passkeys`` needs of the database.
public protocol PasskeyStore: Sendable {
    func putWebAuthnChallenge(_ challenge: WebAuthnChallenge) async throws
    func takeWebAuthnChallenge(bindingHash: Data, now: Date) async throws -> WebAuthnChallenge?
    func insertPasskey(_ passkey: Passkey, limit: Int, audit: AuditEvent) async throws -> Bool
    func passkeys(userID: String) async throws -> [Passkey]
    func passkey(credentialID: Data) async throws -> Passkey?
    func recordPasskeyUse(id: String, signCount: Int64, backedUp: Bool, now: Date) async throws -> PasskeyUse
    func deletePasskey(id: String, userID: String, audit: AuditEvent, now: Date) async throws -> PasskeyRemoval?
    func user(id: String) async throws -> User?
    func append(_ event: AuditEvent) async throws
}
