import Foundation
import PortvaktCore
import PortvaktModels

/// Everything the export reads about one person.
public protocol PersonalDataStore: Sendable {
    func user(id: String) async throws -> User?
    func organisations() async throws -> [Organisation]
    func memberships(userID: String) async throws -> [Membership]
    func memberRecord(id: String) async throws -> MemberRecord?
    func auditEvents(actorUserID: String, actions: [String], limit: Int) async throws -> [AuditEvent]
    func auditEvents(subjectType: String, subjectID: String) async throws -> [AuditEvent]
    func identityProviders(userID: String) async throws -> [String]
    func activeDevices(userID: String) async throws -> [Device]
    func passkeys(userID: String) async throws -> [Passkey]
    func activeSessions(userID: String, now: Date) async throws -> [Session]
    func browserSessions(userID: String, now: Date) async throws -> [BrowserSession]
    func consents(userID: String) async throws -> [Consent]
}

/// "Download my data" (GDPR articles 15 and 20, PRIVACY.md): what Portvakt holds about the
/// signed-in member, as JSON: the account, memberships with what each member record says,
/// devices, passkeys, open sessions and browser sign-ins, the services they consented to, and the
/// security events they did. A personnummer is masked
/// (`144892*****`); no secret (a key, a token's hash, a session reference) is included.
public struct PersonalDataExport: Sendable {
    let store: any PersonalDataStore
    let vault: PersonnummerVault
    let now: @Sendable () -> Date

    public init(store: any PersonalDataStore, vault: PersonnummerVault, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.vault = vault
        self.now = now
    }

    struct Document: Encodable {
        struct Profile: Encodable {
            let name: String
            let email: String?
            let personnummer: String?
            let signInMethods: [String]
            let hasPassword: Bool
            let createdAt: Date
        }

        struct Membership: Encodable {
            let organisation: String
            let role: String
            let record: Record
        }

        struct Record: Encodable {
            let name: String
            let email: String?
            let phone: String?
            let personnummer: String?
        }

        struct Device: Encodable {
            let name: String
            let platform: String
            let biometricKind: String
            let createdAt: Date
            let lastUsedAt: Date?
        }

        /// A passkey (S18): its name and dates; never its key or credential ID.
        struct Passkey: Encodable {
            let name: String
            let createdAt: Date
            let lastUsedAt: Date?
        }

        struct Session: Encodable {
            let client: String
            let methods: [String]
            let signedInAt: Date
            let expiresAt: Date
        }

        struct Consent: Encodable {
            let client: String
            let scopes: [String]
            let grantedAt: Date
        }

        struct Event: Encodable {
            let at: Date
            let action: String
            let outcome: String
            let source: String?
            let clientAddress: String?
        }

        let exportedAt: Date
        let profile: Profile
        let memberships: [Membership]
        let devices: [Device]
        let passkeys: [Passkey]
        let sessions: [Session]
        /// The browsers signed in at Portvakt (single sign-on).
        let browserSignIns: [Session]
        /// The third-party services the member let have their details, and what.
        let consents: [Consent]
        /// What the member did (their sign-ins, unlocks, step-ups), newest first.
        let securityEvents: [Event]
        /// What was done to their account or member records (a number written back, shown in
        /// full to an administrator, merged), newest first; without the other person's address.
        let eventsAboutYou: [Event]
        /// Set when a list above was cut at ``PersonalDataExport/eventLimit``.
        let eventsTruncated: Bool
    }

    static let eventLimit = 1000

    /// The member's data as a JSON document; nil when the account no longer exists.
    public func export(userID: String) async throws -> Data? {
        guard let user = try await store.user(id: userID) else { return nil }
        let now = self.now()
        let organisations = Dictionary(uniqueKeysWithValues: try await store.organisations().map { ($0.id, $0.name) })
        var memberships: [Document.Membership] = []
        var recordIDs: [String] = []
        for membership in try await store.memberships(userID: userID) {
            if let recordID = membership.memberRecordId { recordIDs.append(recordID) }
            guard let recordID = membership.memberRecordId, let record = try await store.memberRecord(id: recordID) else { continue }
            memberships.append(Document.Membership(
                organisation: organisations[membership.organisationId] ?? membership.organisationId, role: membership.role.rawValue,
                record: Document.Record(
                    name: record.fullName, email: record.email, phone: record.phone,
                    personnummer: masked(record.personnummer, record: MemberRecord.personnummerContext(recordID: record.id))
                )
            ))
        }
        let date = { (milliseconds: Int64) in Date(millisecondsSince1970: milliseconds) }
        let own = try await store.auditEvents(actorUserID: userID, actions: AuditAction.allCases.map(\.rawValue), limit: Self.eventLimit)
        var about = try await store.auditEvents(subjectType: "user", subjectID: userID)
        for recordID in Set(recordIDs) {
            about += try await store.auditEvents(subjectType: "member", subjectID: recordID)
            about += try await store.auditEvents(subjectType: "member_record", subjectID: recordID)
        }
        let listed = Set(own.map(\.id))
        about = Array(about.filter { !listed.contains($0.id) }.sorted { $0.occurredAt > $1.occurredAt }.prefix(Self.eventLimit))
        let document = Document(
            exportedAt: now,
            profile: Document.Profile(
                name: user.displayName, email: user.email, personnummer: masked(user.personnummer, record: User.personnummerRecord(userID: user.id)),
                signInMethods: try await store.identityProviders(userID: userID), hasPassword: user.passwordHash != nil, createdAt: date(user.createdAt)
            ),
            memberships: memberships,
            devices: try await store.activeDevices(userID: userID).map {
                Document.Device(name: $0.name, platform: $0.platform, biometricKind: $0.biometricKind, createdAt: date($0.createdAt), lastUsedAt: $0.lastUsedAt.map(date))
            },
            passkeys: try await store.passkeys(userID: userID).map {
                Document.Passkey(name: $0.name, createdAt: date($0.createdAt), lastUsedAt: $0.lastUsedAt.map(date))
            },
            sessions: try await store.activeSessions(userID: userID, now: now).map {
                Document.Session(
                    client: $0.clientId, methods: $0.amr.split(separator: " ").map(String.init), signedInAt: date($0.authTime),
                    expiresAt: date(min($0.idleExpiresAt, $0.absoluteExpiresAt))
                )
            },
            browserSignIns: try await store.browserSessions(userID: userID, now: now).map {
                Document.Session(
                    client: "single sign-on", methods: $0.amr.split(separator: " ").map(String.init), signedInAt: date($0.authTime),
                    expiresAt: date(min($0.idleExpiresAt, $0.absoluteExpiresAt))
                )
            },
            consents: try await store.consents(userID: userID).map {
                Document.Consent(client: $0.clientId, scopes: $0.scope.split(separator: " ").map(String.init), grantedAt: date($0.grantedAt))
            },
            securityEvents: own.map {
                Document.Event(at: $0.occurredAt, action: $0.action, outcome: $0.outcome, source: $0.source, clientAddress: $0.details[AuditEvent.clientAddressKey])
            },
            eventsAboutYou: about.map { Document.Event(at: $0.occurredAt, action: $0.action, outcome: $0.outcome, source: $0.source, clientAddress: nil) },
            eventsTruncated: own.count >= Self.eventLimit || about.count >= Self.eventLimit
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(document)
    }

    private func masked(_ protected: ProtectedPersonnummer?, record: String) -> String? {
        guard let protected else { return nil }
        return (try? vault.open(protected.sealed, record: record))?.masked ?? "*****"
    }
}
