import Foundation
import PortvaktCore

/// A person who can log in to Portvakt.
public struct User: Sendable, Hashable, Codable {
    public let id: String
    public let displayName: String
    public let email: String?
    /// Bcrypt hash for the email/password fallback; nil when the user has no password.
    public let passwordHash: String?
    package let personnummerSealed: Data?
    package let personnummerKeyId: String?
    package let personnummerIndex: String?
    /// The stored personnummer, sealed for this row's id, when it has one.
    public var personnummer: ProtectedPersonnummer? {
        ProtectedPersonnummer(sealed: personnummerSealed, keyID: personnummerKeyId, index: personnummerIndex)
    }
    public let createdAt: Int64
    public let disabledAt: Int64?
    /// The last BankID or Vipps login (device trust is counted from it).
    public var lastEidLoginAt: Int64?
    /// The last login with the password (a password-level device key's trust counts from it too).
    public var lastPasswordLoginAt: Int64?

    package init(
        id: String, displayName: String, email: String?, passwordHash: String?, personnummerSealed: Data?, personnummerKeyId: String?,
        personnummerIndex: String?, createdAt: Int64, disabledAt: Int64?, lastEidLoginAt: Int64? = nil, lastPasswordLoginAt: Int64? = nil
    ) {
        self.id = id
        self.displayName = displayName
        self.email = email
        self.passwordHash = passwordHash
        self.personnummerSealed = personnummerSealed
        self.personnummerKeyId = personnummerKeyId
        self.personnummerIndex = personnummerIndex
        self.createdAt = createdAt
        self.disabledAt = disabledAt
        self.lastEidLoginAt = lastEidLoginAt
        self.lastPasswordLoginAt = lastPasswordLoginAt
    }

    /// Every column, except a password login not made yet: a row written for a schema before
    /// version 37 (the upgrade tests' older schemas) names no column it lacks.
    public func encode(to encoder: any Encoder) throws {
        var row = encoder.container(keyedBy: CodingKeys.self)
        try row.encode(id, forKey: .id)
        try row.encode(displayName, forKey: .displayName)
        try row.encodeIfPresent(email, forKey: .email)
        try row.encodeIfPresent(passwordHash, forKey: .passwordHash)
        try row.encodeIfPresent(personnummerSealed, forKey: .personnummerSealed)
        try row.encodeIfPresent(personnummerKeyId, forKey: .personnummerKeyId)
        try row.encodeIfPresent(personnummerIndex, forKey: .personnummerIndex)
        try row.encode(createdAt, forKey: .createdAt)
        try row.encodeIfPresent(disabledAt, forKey: .disabledAt)
        try row.encodeIfPresent(lastEidLoginAt, forKey: .lastEidLoginAt)
        if let lastPasswordLoginAt { try row.encode(lastPasswordLoginAt, forKey: .lastPasswordLoginAt) }
    }
}

/// Which identity provider vouched for a login.
public enum IdentityProvider: String, Sendable, Hashable, Codable, CaseIterable {
    case bankid, vipps, password
    /// A passkey (WebAuthn) on the web; the credential lives in `passkeys`, never in `identities`.
    case passkey
}

/// A user's account at an identity provider: unique per (provider, subject).
public struct Identity: Sendable, Hashable, Codable {
    public let id: String
    public let userId: String
    public let provider: IdentityProvider
    public let subject: String
    public let createdAt: Int64
    public let lastLoginAt: Int64?

    package init(id: String, userId: String, provider: IdentityProvider, subject: String, createdAt: Int64, lastLoginAt: Int64?) {
        self.id = id
        self.userId = userId
        self.provider = provider
        self.subject = subject
        self.createdAt = createdAt
        self.lastLoginAt = lastLoginAt
    }
}

/// A user's role in an organisation, linked to the member record it came from.
public struct Membership: Sendable, Hashable, Codable {
    public let userId: String
    public let organisationId: String
    public let role: Role
    public let memberRecordId: String?
    public let createdAt: Int64

    package init(userId: String, organisationId: String, role: Role, memberRecordId: String?, createdAt: Int64) {
        self.userId = userId
        self.organisationId = organisationId
        self.role = role
        self.memberRecordId = memberRecordId
        self.createdAt = createdAt
    }
}

/// A user's roles in one organisation, as tokens carry them.
public struct OrganisationRoles: Sendable, Hashable {
    public let organisationID: String
    public let slug: String
    public let roles: [Role]

    public init(organisationID: String, slug: String, roles: [Role]) {
        self.organisationID = organisationID
        self.slug = slug
        self.roles = roles
    }
}

extension OrganisationRoles {
    /// One entry per organisation, from (organisation, slug, role) rows ordered by organisation.
    package static func grouping(_ rows: [(organisationID: String, slug: String, role: Role)]) -> [OrganisationRoles] {
        var result: [OrganisationRoles] = []
        for row in rows {
            if let last = result.last, last.organisationID == row.organisationID {
                // Two records may give one role (one membership a record): the role counts once.
                guard !last.roles.contains(row.role) else { continue }
                result[result.count - 1] = OrganisationRoles(organisationID: last.organisationID, slug: last.slug, roles: last.roles + [row.role])
            } else {
                result.append(OrganisationRoles(organisationID: row.organisationID, slug: row.slug, roles: [row.role]))
            }
        }
        return result
    }
}
