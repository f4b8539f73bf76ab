import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import Testing

/// Records, accounts and invitations in memory, for ``MemberInvitations``.
actor InMemoryInvitations: MemberInvitationStore, MailOutboxStore {
    var records: [MemberRecord] = []
    var users: [String: User] = [:]
    var holders: [String: String] = [:]
    var roles: [String: [OrganisationRoles]] = [:]
    private(set) var invites: [(invite: PasswordInvite, mail: MailOutboxMessage, audit: AuditEvent)] = []

    func put(_ record: MemberRecord, heldBy user: User? = nil, roles userRoles: [OrganisationRoles] = [Fixtures.nhf]) {
        records.append(record)
        if let user {
            users[user.id] = user
            holders[record.id] = user.id
            roles[user.id] = userRoles
        }
    }
    func putUser(_ user: User) { users[user.id] = user }

    func user(holdingAnyOf records: [MemberRecord]) async throws -> User? {
        records.lazy.compactMap { self.holders[$0.id] }.first.flatMap { users[$0] }
    }
    func user(email: String) async throws -> User? { users.values.first { $0.email?.lowercased() == email.lowercased() } }
    func organisationRoles(userID: String) async throws -> [OrganisationRoles] { roles[userID] ?? [] }
    func memberOrganisationIDs(userID: String) async throws -> Set<String> { Set((roles[userID] ?? []).map(\.organisationID)) }
    func memberRecords(email: String) async throws -> [MemberRecord] { records.filter { $0.email?.lowercased() == email.lowercased() } }
    func insertPasswordInvite(_ invite: PasswordInvite, mail: MailOutboxMessage, audit: AuditEvent) async throws {
        invites.append((invite, mail, audit))
    }
    func enqueueMail(_ messages: [MailOutboxMessage]) async throws {}
}

@Suite("Inviting a member to password login, on an in-memory store")
struct MemberInvitationsTests {
    let store = InMemoryInvitations()
    let invitations: MemberInvitations
    let ingrid = Fixtures.actor("ingrid", .password)

    init() throws {
        let mailer = Mailer(store: store, cipher: try Fixtures().keys.cipher, accountURL: { "https://portvakt.example/account" }, now: { Fixtures.now })
        invitations = MemberInvitations(store: store, mailer: mailer, link: { "https://portvakt.example/portal/password/" + $0 }, now: { Fixtures.now })
    }

    static func record(_ id: String, email: String?, organisation: String = "org-nhf") -> MemberRecord {
        MemberRecord(id: id, organisationID: organisation, fullName: "Kari Nordmann", email: email, createdAt: Fixtures.now)
    }

    @Test("The link goes by email to the record's address, bound to the record alone when no account holds it; only its hash is kept; audited")
    func invitesRecord() async throws {
        let record = Self.record("rec-kari", email: "Kari@Example.org")
        await store.put(record)
        try await invitations.invite(record, in: Fixtures.nhf, by: ingrid, source: "portal")
        let sent = try #require(await store.invites.first)
        #expect(sent.invite.email == "kari@example.org" && sent.invite.userId == nil && sent.invite.memberRecordId == "rec-kari")
        #expect(sent.mail.recipient == "Kari@Example.org" && sent.mail.kind == "password_invite")
        #expect(sent.invite.tokenHash.count == 32)
        #expect(sent.audit.action == AuditAction.userPasswordInvited.rawValue && sent.audit.details["bound_to"] == "record")
        #expect(sent.audit.subjectID == "rec-kari" && sent.audit.source == "portal")
    }

    @Test("Review II item 1: refused, with nothing stored, when the email would reach anyone but this member or open more than this organisation")
    func refusals() async throws {
        let kari = User(id: "kari", displayName: "Kari", email: "kari@example.org", createdAt: Fixtures.now)
        let cases: [(MemberRecord, User?, [OrganisationRoles], User?, MemberRecord?, DomainError)] = [
            (Self.record("r1", email: nil), nil, [], nil, nil, .inviteNeedsEmail),
            // Another account has the address: the link would take it over.
            (Self.record("r2", email: "kari@example.org"), nil, [], kari, nil, .inviteEmailOtherAccount),
            // The holder has no email of its own to check the record's against.
            (Self.record("r3", email: "per@example.org"), User(id: "per", displayName: "Per", createdAt: Fixtures.now), [Fixtures.nhf], nil, nil, .inviteAccountWithoutEmail),
            // The holder is also an administrator elsewhere: a password would open that too.
            (Self.record("r4", email: "kari@example.org"), kari, [Fixtures.nhf, Fixtures.hlf], nil, nil, .inviteAccountElsewhere),
            // The address is also on another organisation's record that nobody (or someone else) holds.
            (Self.record("r5", email: "ola@example.org"), nil, [], nil, Self.record("r6", email: "ola@example.org", organisation: "org-hlf"), .inviteEmailOtherOrganisations),
        ]
        for (record, holder, roles, otherUser, otherRecord, refusal) in cases {
            let store = InMemoryInvitations()
            let mailer = Mailer(store: store, cipher: try Fixtures().keys.cipher, accountURL: { "" }, now: { Fixtures.now })
            let invitations = MemberInvitations(store: store, mailer: mailer, link: { $0 }, now: { Fixtures.now })
            await store.put(record, heldBy: holder, roles: roles)
            if let otherUser { await store.putUser(otherUser) }
            if let otherRecord { await store.put(otherRecord) }
            await #expect(throws: refusal) { try await invitations.invite(record, in: Fixtures.nhf, by: ingrid, source: "portal") }
            #expect(await store.invites.isEmpty)
        }
    }

    @Test("Only an administrator of the record's own organisation invites")
    func onlyAdministrators() async throws {
        let record = Self.record("rec-kari", email: "kari@example.org")
        await store.put(record)
        let coordinator = Fixtures.actor("per", .bankID, roles: [OrganisationRoles(organisationID: "org-nhf", slug: "nhf", roles: [.coordinator])])
        await #expect(throws: DomainError.notAllowed) { try await invitations.invite(record, in: Fixtures.nhf, by: coordinator, source: "portal") }
        let hlfAdmin = Fixtures.actor("hanne", .bankID, roles: [Fixtures.hlf])
        await #expect(throws: DomainError.notFound("member")) { try await invitations.invite(record, in: Fixtures.hlf, by: hlfAdmin, source: "portal") }
        #expect(await store.invites.isEmpty)
    }
}
