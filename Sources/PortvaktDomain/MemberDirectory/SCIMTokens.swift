import Crypto
import Foundation
import PortvaktCore
import PortvaktModels

/// A member system's tokens: hashes only, one name per organisation.
public protocol SCIMTokenStore: Sendable {
    func insertSCIMToken(_ token: SCIMToken, audit: AuditEvent) async throws
    func revokeSCIMToken(organisationID: String, name: String, audit: @escaping @Sendable (SCIMToken) -> AuditEvent, now: Date) async throws -> SCIMToken?
    func scimTokens(organisationID: String) async throws -> [SCIMToken]
    func scimToken(hash: Data) async throws -> SCIMToken?
    func markSCIMTokenUsed(id: String, now: Date) async throws
}

/// The member systems' bearer tokens for SCIM (issue 45 item 1): one per member system, bound to
/// one organisation, shown once at creation and stored only as its SHA-256, revocable. A token
/// reaches its own organisation's records only.
public struct SCIMTokens: Sendable {
    let store: any SCIMTokenStore
    let now: @Sendable () -> Date

    /// Every token starts so, which makes one easy to recognise in a leaked file or a secret scanner.
    public static let prefix = "pvscim_"

    public init(store: any SCIMTokenStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// Makes a token for the organisation's member system, audited.
    /// - Returns: the token (`pvscim_` and 43 base64url characters of 32 random bytes), to show
    ///   once: only its hash is kept; and its id.
    /// - Throws: ``DirectoryError``: `invalidValue` for an empty name, one over 100 characters or
    ///   with a control character; `uniqueness` when the organisation has a live token of this
    ///   name; `notFound` for an unknown organisation.
    public func create(organisationID: String, name: String) async throws -> (token: String, id: String) {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 100, !TextInput.hasControlCharacters(name) else {
            throw DirectoryError(.invalidValue, field: "name", reason: "a token's name has 1 to 100 characters and no line break")
        }
        let token = Self.prefix + randomToken()
        let id = UUID().uuidString.lowercased()
        let now = now()
        do {
            try await store.insertSCIMToken(
                SCIMToken(id: id, organisationID: organisationID, name: name, tokenHash: Self.hash(token), now: now),
                audit: Self.event(.scimTokenCreated, organisationID: organisationID, tokenID: id, name: name, at: now)
            )
        } catch let error as StoreError where error.isDuplicate {
            throw DirectoryError(.uniqueness, field: "name", reason: "the organisation has a token with this name; revoke it first")
        } catch let error as StoreError where error.isMissingReference {
            throw DirectoryError(.notFound, field: "organisation", reason: "no such organisation")
        }
        return (token, id)
    }

    /// Revokes the organisation's live token of this name, audited: the member system's next
    /// request is refused.
    /// - Returns: false when there is no live token of that name.
    @discardableResult
    public func revoke(organisationID: String, name: String) async throws -> Bool {
        let now = now()
        return try await store.revokeSCIMToken(organisationID: organisationID, name: name.trimmingCharacters(in: .whitespaces), audit: { token in
            Self.event(.scimTokenRevoked, organisationID: organisationID, tokenID: token.id, name: token.name, at: now)
        }, now: now) != nil
    }

    /// The organisation's tokens, revoked ones too, by name.
    public func list(organisationID: String) async throws -> [(id: String, name: String, createdAt: Date, lastUsedAt: Date?, revoked: Bool)] {
        try await store.scimTokens(organisationID: organisationID).map { token in
            (
                id: token.id, name: token.name, createdAt: Date(millisecondsSince1970: token.createdAt),
                lastUsedAt: token.lastUsedAt.map(Date.init(millisecondsSince1970:)), revoked: token.revokedAt != nil
            )
        }
    }

    /// The organisation and token of a presented bearer token; nil for one that is malformed,
    /// unknown or revoked. Notes the use (at most once a minute, so a busy sync does not write on
    /// every request).
    public func verify(_ token: String) async throws -> (organisationID: String, tokenID: String, name: String)? {
        guard token.utf8.count == Self.prefix.utf8.count + 43, token.hasPrefix(Self.prefix) else { return nil }
        guard let stored = try await store.scimToken(hash: Self.hash(token)) else { return nil }
        let now = now()
        if stored.lastUsedAt.map({ now.millisecondsSince1970 - $0 >= 60_000 }) ?? true {
            try await store.markSCIMTokenUsed(id: stored.id, now: now)
        }
        return (stored.organisationId, stored.id, stored.name)
    }

    /// What the store keeps of a token.
    static func hash(_ token: String) -> Data { Data(SHA256.hash(data: Data(token.utf8))) }

    private static func event(_ action: AuditAction, organisationID: String, tokenID: String, name: String, at now: Date) -> AuditEvent {
        AuditEvent(
            occurredAt: now, action: action, outcome: "success", organisationID: UUID(uuidString: organisationID),
            subjectType: "scim_token", subjectID: tokenID, source: "operator", details: ["name": name]
        )
    }
}
