import Foundation
import Logging
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import Testing

/// Members, their devices and the member system's outbox in memory.
final class InMemoryAdministration: MemberAdministrationStore, MailOutboxStore, @unchecked Sendable {
    private let lock = NSLock()
    private var members: [String: [Membership]] = [:]
    private var messages: [String: OutboxMessage] = [:]
    private var retried: Set<String> = []
    private var devices: [String: [Device]] = [:]
    private var _audit: [AuditEvent] = []
    private var _mail: [MailOutboxMessage] = []
    var audit: [AuditEvent] { lock.withLock { _audit } }
    var mail: [MailOutboxMessage] { lock.withLock { _mail } }

    func addMember(_ userID: String, to organisationID: String) {
        lock.withLock { members[organisationID, default: []].append(Membership(userID: userID, organisationID: organisationID, role: .peerMentor, memberRecordID: nil, createdAt: Fixtures.now)) }
    }
    func put(_ message: OutboxMessage) { lock.withLock { messages[message.id] = message } }
    /// An active phone of `userID` (decoded: the store's rows have no public initialiser).
    func addDevice(_ id: String, of userID: String) throws {
        let row = #"{"id":"\#(id)","userId":"\#(userID)","name":"Phone","platform":"ios","biometricKind":"face","publicKeyJwk":"{}","keyThumbprint":"\#(id)","createdAt":0,"assurance":"eid"}"#
        let device = try JSONDecoder().decode(Device.self, from: Data(row.utf8))
        lock.withLock { devices[userID, default: []].append(device) }
    }
    /// The message is being delivered (claimed by a worker) when retried.
    func claim(_ id: String) { lock.withLock { _ = retried.insert(id) } }

    func memberships(organisationID: String) async throws -> [Membership] { lock.withLock { members[organisationID] ?? [] } }
    func activeDevices(userID: String) async throws -> [Device] { lock.withLock { devices[userID] ?? [] } }
    func revokeDevice(id: String, userID: String, now: Date) async throws -> Bool {
        lock.withLock {
            guard let index = devices[userID]?.firstIndex(where: { $0.id == id }) else { return false }
            devices[userID]?.remove(at: index)
            return true
        }
    }
    func organisation(id: String) async throws -> Organisation? { Organisation(id: id, slug: "nhf", name: "NHF", createdAt: Fixtures.now) }
    func user(id: String) async throws -> User? { User(id: id, displayName: id, email: "\(id)@example.org", createdAt: Fixtures.now) }
    func outboxMessage(id: String) async throws -> OutboxMessage? { lock.withLock { messages[id] } }
    func retryOutboxMessage(id: String, organisationID: String, now: Date) async throws -> OutboxMessage? {
        lock.withLock { retried.contains(id) ? nil : messages[id] }
    }
    func append(_ event: AuditEvent) async throws { lock.withLock { _audit.append(event) } }
    func enqueueMail(_ messages: [MailOutboxMessage]) async throws { lock.withLock { _mail += messages } }
    func memberOrganisationIDs(userID: String) async throws -> Set<String> {
        lock.withLock { Set(members.compactMap { organisation, list in list.contains { $0.userId == userID } ? organisation : nil }) }
    }
}

@Suite("An administrator's actions on members and deliveries, on an in-memory store")
struct MemberAdministrationTests {
    let store = InMemoryAdministration()
    let administration: MemberAdministration
    let ingrid = Fixtures.actor("ingrid", .password)
    /// Ingrid after a BankID login just now: the step-up removing phones asks for.
    let confirmedIngrid = Fixtures.actor("ingrid", .bankID)

    init() throws {
        let mailer = Mailer(store: store, cipher: try Fixtures().keys.cipher, accountURL: { "https://portvakt.example/account" }, now: { Fixtures.now })
        administration = MemberAdministration(store: store, mailer: mailer, logger: Logger(label: "test"), now: { Fixtures.now })
    }

    @Test("Only an administrator of the organisation, only on its members; nothing revoked, nobody told")
    func removeDevicesBounds() async throws {
        store.addMember("kari", to: "org-nhf")
        let coordinator = Fixtures.actor("per", .bankID, roles: [OrganisationRoles(organisationID: "org-nhf", slug: "nhf", roles: [.coordinator])])
        await #expect(throws: DomainError.notAllowed) { try await administration.removeAllDevices(of: "kari", in: Fixtures.nhf, by: coordinator, source: "api") }
        await #expect(throws: DomainError.notFound("member")) { try await administration.removeAllDevices(of: "hanne", in: Fixtures.nhf, by: confirmedIngrid, source: "api") }
        #expect(try await administration.removeAllDevices(of: "kari", in: Fixtures.nhf, by: confirmedIngrid, source: "api") == 0)
        #expect(store.mail.isEmpty && store.audit.isEmpty)
    }

    @Test("Issue 58 item 3: a member of another organisation too keeps every phone whatever this organisation's administrator asks; nothing revoked, nobody told")
    func removeDevicesOfAMemberElsewhere() async throws {
        store.addMember("magnus", to: "org-nhf")
        store.addMember("magnus", to: "org-hlf")
        try store.addDevice("phone-m", of: "magnus")
        await #expect(throws: DomainError.signInMethodsElsewhere) {
            try await administration.removeAllDevices(of: "magnus", in: Fixtures.nhf, by: confirmedIngrid, source: "api")
        }
        #expect(try await store.activeDevices(userID: "magnus").count == 1)
        #expect(store.mail.isEmpty && store.audit.isEmpty)
    }

    @Test("Issue 44 item 3: removing every phone of a member (in all their organisations) needs a BankID, Vipps or passkey sign-in of the last 5 minutes; without it every phone still unlocks and nothing is told about the member")
    func removeDevicesNeedsStepUp() async throws {
        #expect(ActionPolicy.of(.devicesRemoveAll) == ActionPolicy(roles: [.orgAdmin], stepUps: [.freshElectronicID, .freshPasskey], freshness: 300))
        store.addMember("kari", to: "org-nhf")
        try store.addDevice("phone-1", of: "kari")
        try store.addDevice("phone-2", of: "kari")
        let unconfirmed = [
            Fixtures.actor("ingrid", .password), Fixtures.actor("ingrid", .bankID, age: 301),
            Fixtures.actor("ingrid", .deviceKey, stepUp: "personnummer.read"),
        ]
        for actor in unconfirmed {
            await #expect(throws: DomainError.stepUpRequired(.devicesRemoveAll)) {
                try await administration.removeAllDevices(of: "kari", in: Fixtures.nhf, by: actor, source: "portal")
            }
            await #expect(throws: DomainError.stepUpRequired(.devicesRemoveAll), "the policy before the member is looked up") {
                try await administration.removeAllDevices(of: "hanne", in: Fixtures.nhf, by: actor, source: "api")
            }
        }
        #expect(try await store.activeDevices(userID: "kari").count == 2, "both phones still unlock")
        #expect(store.mail.isEmpty && store.audit.isEmpty)

        #expect(try await administration.removeAllDevices(of: "kari", in: Fixtures.nhf, by: confirmedIngrid, source: "portal") == 2)
        #expect(try await store.activeDevices(userID: "kari").isEmpty)
        #expect(store.audit.map(\.action) == ["device.revoked", "device.revoked"])
        #expect(store.audit.allSatisfy { $0.details["by"] == "org_admin" && $0.details["user"] == "kari" && $0.source == "portal" })
        #expect(store.mail.count == 1 && store.mail.first?.recipient == "kari@example.org", "the member is told once")
    }

    @Test("A retry is for this organisation's waiting or dead messages; a message being delivered is a conflict; each retry audited")
    func retryDelivery() async throws {
        let message = OutboxMessage(id: "m1", organisationID: "org-nhf", memberRecordID: "rec", event: "member.personnummer.set",
                                    payload: SealedValue(keyID: "k", combined: Data()), now: Fixtures.now)
        store.put(message)
        await #expect(throws: DomainError.notFound("message")) {
            try await administration.retryDelivery("m1", in: Fixtures.hlf, by: Fixtures.actor("hanne", .bankID, roles: [Fixtures.hlf]), source: "api")
        }
        #expect(try await administration.retryDelivery("m1", in: Fixtures.nhf, by: ingrid, source: "portal").id == "m1")
        #expect(store.audit.map(\.action) == ["member.outbox.retried"] && store.audit.first?.source == "portal")
        store.claim("m1")
        await #expect(throws: DomainError.beingDelivered) { try await administration.retryDelivery("m1", in: Fixtures.nhf, by: ingrid, source: "api") }
    }

    @Test("A security notice is queued sealed, to a usable address only, in the member's language")
    func notices() async throws {
        let mailer = Mailer(store: store, cipher: try Fixtures().keys.cipher, accountURL: { "https://portvakt.example/account" }, now: { Fixtures.now })
        try await mailer.enqueue(.passwordChanged, to: "kari@example.org", language: .en)
        await #expect(throws: MailAddressError.self) { try await mailer.enqueue(.passwordChanged, to: "kari@example.org\r\nBcc: x@evil.example", language: .en) }
        let queued = try #require(store.mail.first)
        #expect(store.mail.count == 1 && queued.recipient == "kari@example.org" && queued.kind == "password_changed" && queued.language == "en")
    }
}

extension InMemoryAdministration {
    func memberRecords(organisationID: String) async throws -> [MemberRecord] { [] }
    func recordHolders(organisationID: String) async throws -> [String: String] { [:] }
    func outboxMessages(organisationID: String, status: String?) async throws -> [OutboxMessage] { [] }
}
