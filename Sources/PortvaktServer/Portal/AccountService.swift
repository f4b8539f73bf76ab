import Foundation
import PortvaktDomain
import PortvaktCore
import PortvaktModels
import PortvaktStorage

/// What "My account" reads and does: the member's account, organisations, sessions, devices
/// and security events; removing a phone and ending sessions.
struct AccountService: Sendable {
    let store: PortvaktStore
    let sessions: SessionService
    let export: PersonalDataExport
    let passkeys: Passkeys
    /// The names the relying parties registered (`client_name`), by client id.
    var clientNames: [String: String] = [:]
    let now: @Sendable () -> Date

    func user(id: String) async throws -> User? {
        try await store.user(id: id)
    }

    /// What the page shows of the member.
    struct Overview: Sendable {
        let user: User
        let organisationNames: [String: String]
        let organisationRoles: [OrganisationRoles]
        let sessions: [Session]
        /// The browsers signed in at Portvakt (single sign-on).
        let browserSignIns: [BrowserSession]
        /// The third-party services the person let have their details.
        let consents: [Consent]
        let devices: [Device]
        let events: [AuditEvent]
        let passkeys: [Passkey]
        /// Whether this browser's session may add a passkey now (``SensitiveAction/passkeyRegister``).
        let mayAddPasskey: Bool
    }

    /// The member as the domain's operations take them: the browser's Portvakt session and their
    /// roles as the database holds them now; nil when the session is gone.
    func actor(sessionID: String) async throws -> Actor? {
        guard let session = try await store.session(id: sessionID), session.revokedAt == nil else { return nil }
        return Actor(session: session, organisations: try await store.organisationRoles(userID: session.userId))
    }

    /// Nil when the account was merged into another or removed since the sign-in.
    func overview(userID: String, sessionID: String, eventActions: [String]) async throws -> Overview? {
        guard let user = try await store.user(id: userID) else { return nil }
        let actor = try await actor(sessionID: sessionID)
        return Overview(
            user: user,
            organisationNames: Dictionary(uniqueKeysWithValues: try await store.organisations().map { ($0.id, $0.name) }),
            organisationRoles: try await store.organisationRoles(userID: userID),
            sessions: try await store.activeSessions(userID: userID, now: now()),
            browserSignIns: try await store.browserSessions(userID: userID, now: now()),
            consents: try await store.consents(userID: userID),
            devices: try await store.activeDevices(userID: userID),
            events: try await store.securityEvents(userID: userID, actions: eventActions),
            passkeys: try await passkeys.list(userID: userID),
            mayAddPasskey: actor?.satisfies(.passkeyRegister, at: now()) ?? false
        )
    }

    /// "Download my data": the member's data as JSON (``PersonalDataExport``), audited.
    func exportData(userID: String, sessionID: String) async throws -> Data? {
        guard let data = try await export.export(userID: userID) else { return nil }
        try await store.append(AuditEvent(
            occurredAt: now(), action: .accountDataExported, outcome: "success", actorUserID: UUID(uuidString: userID),
            subjectType: "user", subjectID: userID, source: "portal"
        ))
        return data
    }

    /// Removes the member's phone (the lost-phone case: it can no longer unlock, and the sessions
    /// it unlocked end); false when it is not theirs.
    func removeDevice(_ id: String, userID: String) async throws -> Bool {
        let now = self.now()
        guard try await store.revokeDevice(id: id, userID: userID, now: now) else { return false }
        try await store.append(AuditEvent(
            occurredAt: now, action: .deviceRevoked, outcome: "success", actorUserID: UUID(uuidString: userID),
            subjectType: "device", subjectID: id, source: "portal", details: [:]
        ))
        return true
    }

    /// Ends one of the member's sessions; false when it is not theirs.
    func endSession(_ id: String, userID: String) async throws -> Bool {
        if let signIn = try await store.browserSessions(userID: userID, now: now()).first(where: { $0.id == id }) {
            try await sessions.endBrowserSignIn(id: signIn.id, userID: userID, reason: "signed_out_from_portal")
            return true
        }
        guard let session = try await store.session(id: id), session.userId == userID else { return false }
        if session.revokedAt == nil {
            try await sessions.end(session, reason: "signed_out_from_portal", now: now())
        }
        return true
    }

    func endSessions(userID: String, except current: String) async throws {
        let now = self.now()
        for session in try await store.activeSessions(userID: userID, now: now) where session.id != current {
            try await sessions.end(session, reason: "signed_out_from_portal", now: now)
        }
        // The other browsers' sign-ins at Portvakt end too, so none of them answers a client again.
        let here = try await store.session(id: current)?.browserSessionId
        try await store.endBrowserSessions(userID: userID, keeping: here, reason: "signed_out_from_portal", now: now)
    }

    /// Takes back a consent: the service gets nothing more, and its sessions of the person end;
    /// false when there was none.
    func withdrawConsent(clientID: String, userID: String) async throws -> Bool {
        try await store.revokeConsent(userID: userID, clientID: clientID, audit: AuditEvent(
            occurredAt: now(), action: .consentWithdrawn, outcome: "success", actorUserID: UUID(uuidString: userID),
            subjectType: "client", subjectID: clientID, source: "portal", details: [:]
        ), now: now())
    }
}
