import Crypto
import Foundation
import PortvaktCore
import PortvaktStorage
import Personnummer
import PortvaktModels
import PortvaktTestSupport
import Testing

/// The member directory's storage (migration 27): versioned records, batched writes in one
/// transaction, leaving, and the member systems' SCIM tokens, on both databases.
@Suite("Member directory storage")
struct MemberDirectoryStorageTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let numbers = ["15058600048", "15058600129", "15058600390", "15058600471"]

    static func values(_ externalRef: String, userName: String? = nil, role: Role = .peerMentor, active: Bool = true, phone: String? = nil) -> MemberRecordValues {
        MemberRecordValues(
            externalRef: externalRef, userName: userName ?? "\(externalRef)@example.org", givenName: "Kari", familyName: externalRef,
            fullName: "Kari \(externalRef)", email: "\(externalRef)@example.org", phone: phone, role: role, memberNumber: nil, active: active
        )
    }

    static func record(_ organisationID: String, _ values: MemberRecordValues, number: String? = nil, vault: PersonnummerVault) throws -> MemberRecord {
        let id = UUID().uuidString.lowercased()
        let sealed = try number.map { try vault.protect(Personnummer($0), record: MemberRecord.personnummerContext(recordID: id)) }
        return MemberRecord(id: id, organisationID: organisationID, values: values, personnummer: sealed, now: now)
    }

    @discardableResult
    static func write(_ store: PortvaktStore, adding: [MemberRecord] = [], changing: [MemberRecordChange] = []) async throws -> (written: [MemberRecord], effects: MemberRecordWriteEffects) {
        try await store.writeMemberRecords(adding: adding, changing: changing, reason: "membership_ended", audit: { _ in [] }, now: now)
    }

    static func ending(_ record: MemberRecord) -> MemberRecordChange {
        var values = record.values
        values.active = false
        return MemberRecordChange(before: record, values: values, personnummer: .keep)
    }

    @Test("Issue 45 item 1: a record made before the directory reads at version 1, active, with no user name", arguments: TestDatabase.kinds)
    func olderRecordsRead(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let seeded = try await store.createMemberRecord(organisationID: nhf.id, NewMemberRecord(externalRef: "sandbox-1", fullName: "Kari Nordmann"))
            let read = try #require(try await store.memberRecord(id: seeded.id))
            #expect(read.version == 1 && read.isActive && read.userName == nil && read.givenName == nil)
            #expect(read.values.fullName == "Kari Nordmann")
        }
    }

    @Test("S22.1: additions go in batches in one transaction; user names are unique per organisation without case", arguments: TestDatabase.kinds)
    func batchedAdditions(kind: DatabaseKind) async throws {
        let vault = try StorageTestKeys.vault()
        try await TestDatabase.withStore(kind) { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let hlf = try await store.createOrganisation(slug: "hlf", name: "HLF")
            let many = try (0..<1_000).map { try Self.record(nhf.id, Self.values("M-\($0)"), vault: vault) }
            try await Self.write(store, adding: many)
            #expect(try await store.memberRecords(organisationID: nhf.id, filter: nil, offset: 0, limit: 0).total == 1_000)

            // One refused row (the same user name in other letters) refuses the whole batch.
            let clash = try Self.record(nhf.id, Self.values("X-1", userName: "M-7@EXAMPLE.ORG"), vault: vault)
            let fresh = try Self.record(nhf.id, Self.values("X-2"), vault: vault)
            await #expect(throws: StoreError.duplicate(nil)) { try await Self.write(store, adding: [fresh, clash]) }
            #expect(try await store.memberRecord(id: fresh.id) == nil)
            // Another organisation may have it.
            try await Self.write(store, adding: [try Self.record(hlf.id, Self.values("M-7"), vault: vault)])
        }
    }

    @Test("Issue 45 item 1: a change is written only at the version it was planned on, and moves the version on", arguments: TestDatabase.kinds)
    func versionedChange(kind: DatabaseKind) async throws {
        let vault = try StorageTestKeys.vault()
        try await TestDatabase.withStore(kind) { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let original = try Self.record(nhf.id, Self.values("M-1"), vault: vault)
            try await Self.write(store, adding: [original])
            var changed = original.values
            changed.email = "new@example.org"
            changed.fullName = nil  // keeps the full name
            let (written, _) = try await Self.write(store, changing: [MemberRecordChange(before: original, values: changed, personnummer: .keep)])
            #expect(written.map(\.version) == [2])
            #expect(written.first?.email == "new@example.org" && written.first?.fullName == "Kari M-1")

            // A second change planned on version 1 lost the race: nothing of it is written.
            var staleValues = original.values
            staleValues.phone = "+4791234567"
            let stale = MemberRecordChange(before: original, values: staleValues, personnummer: .keep)
            await #expect(throws: StoreError.notFound("member_records")) { try await Self.write(store, changing: [stale]) }
            let current = try #require(try await store.memberRecord(id: original.id))
            #expect(current.version == 2 && current.phone == nil)
        }
    }

    @Test("S22.1: one write may swap user names and personnummer between two records", arguments: TestDatabase.kinds)
    func swaps(kind: DatabaseKind) async throws {
        let vault = try StorageTestKeys.vault()
        try await TestDatabase.withStore(kind) { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let a = try Self.record(nhf.id, Self.values("A", userName: "1001"), number: Self.numbers[0], vault: vault)
            let b = try Self.record(nhf.id, Self.values("B", userName: "1002"), number: Self.numbers[1], vault: vault)
            try await Self.write(store, adding: [a, b])
            func seal(_ number: String, for record: MemberRecord) throws -> PersonnummerWrite {
                .set(try vault.protect(Personnummer(number), record: MemberRecord.personnummerContext(recordID: record.id)))
            }
            var toA = a.values, toB = b.values
            toA.userName = "1002"
            toB.userName = "1001"
            try await Self.write(store, changing: [
                MemberRecordChange(before: a, values: toA, personnummer: try seal(Self.numbers[1], for: a)),
                MemberRecordChange(before: b, values: toB, personnummer: try seal(Self.numbers[0], for: b)),
            ])
            let index = vault.blindIndex(try Personnummer(Self.numbers[1]))
            #expect(try await store.memberRecords(personnummerIndex: index).map(\.id) == [a.id])
            #expect(try await store.memberRecords(organisationID: nhf.id, filter: .userName("1001"), offset: 0, limit: 10).records.map(\.id) == [b.id])
        }
    }

    @Test("S22.1: a write that fails part way writes nothing: no addition, no change", arguments: TestDatabase.kinds)
    func allOrNothing(kind: DatabaseKind) async throws {
        let vault = try StorageTestKeys.vault()
        try await TestDatabase.withStore(kind) { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let kept = try Self.record(nhf.id, Self.values("K"), vault: vault)
            let other = try Self.record(nhf.id, Self.values("O"), vault: vault)
            try await Self.write(store, adding: [kept, other])
            var renamed = kept.values
            renamed.userName = "renamed@example.org"
            let added = try Self.record(nhf.id, Self.values("N"), vault: vault)
            // Someone else changes `other` first: a change planned on its version 1 is stale.
            var promoted = other.values
            promoted.role = .coordinator
            _ = try await Self.write(store, changing: [MemberRecordChange(before: other, values: promoted, personnummer: .keep)])
            let changes = [
                MemberRecordChange(before: kept, values: renamed, personnummer: .keep),
                MemberRecordChange(before: other, values: other.values, personnummer: .keep),
            ]
            await #expect(throws: StoreError.notFound("member_records")) { try await Self.write(store, adding: [added], changing: changes) }
            #expect(try await store.memberRecord(id: added.id) == nil)
            #expect(try await store.memberRecord(id: kept.id)?.userName == kept.userName)
        }
    }

    @Test("S22.2: logins and claims never find an ended record by personnummer, phone or email", arguments: TestDatabase.kinds)
    func endedRecordsAreNotLinked(kind: DatabaseKind) async throws {
        let vault = try StorageTestKeys.vault()
        try await TestDatabase.withStore(kind) { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let record = try Self.record(nhf.id, Self.values("M-1", phone: "+4791234567"), number: Self.numbers[0], vault: vault)
            try await Self.write(store, adding: [record])
            let index = vault.blindIndex(try Personnummer(Self.numbers[0]))
            #expect(try await store.memberRecords(personnummerIndex: index).count == 1)
            try await Self.write(store, changing: [Self.ending(record)])

            #expect(try await store.memberRecords(personnummerIndex: index).isEmpty)
            #expect(try await store.memberRecords(phone: "+4791234567").isEmpty)
            #expect(try await store.memberRecords(email: "M-1@example.org").isEmpty)
            // The unique index still counts it: a number check before writing sees it.
            #expect(try await store.memberRecords(personnummerIndex: index, includingEnded: true).map(\.id) == [record.id])
            // A login that looked the record up just before it ended gets no role from it.
            let ended = try #require(try await store.memberRecord(id: record.id))
            #expect(!ended.isActive && ended.version == 2)
            await #expect(throws: StoreError.constraint(nil)) {
                try await store.createMemberUser(
                    displayName: "Kari", email: nil, personnummer: nil, provider: .vipps, subject: "vipps-1", memberRecords: [ended]
                )
            }
        }
    }

    @Test("S22.2: ending a membership ends the role at once; with none left, every session, portal session, device and passkey", arguments: TestDatabase.kinds)
    func leaving(kind: DatabaseKind) async throws {
        let vault = try StorageTestKeys.vault()
        try await TestDatabase.withStore(kind) { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let hlf = try await store.createOrganisation(slug: "hlf", name: "HLF")
            let una = try Self.record(nhf.id, Self.values("una", role: .orgAdmin), vault: vault)
            let kari = try Self.record(nhf.id, Self.values("kari"), vault: vault)
            let kariHLF = try Self.record(hlf.id, Self.values("kari"), vault: vault)
            try await Self.write(store, adding: [una, kari, kariHLF])
            let unaUser = try await Self.account(store, holding: una, organisation: nhf.id)
            let kariUser = try await Self.account(store, holding: kari, organisation: nhf.id)
            _ = try await store.addMembership(userID: kariUser.user.id, organisationID: hlf.id, role: .peerMentor, memberRecordID: kariHLF.id)

            let (_, effects) = try await Self.write(store, changing: [Self.ending(una), Self.ending(kari)])
            let byUser = Dictionary(uniqueKeysWithValues: effects.ended.map { ($0.userID, $0) })
            #expect(byUser[unaUser.user.id] == EndedAccess(
                userID: unaUser.user.id, organisationIDs: [nhf.id], leftWithNone: true, sessions: 1, devices: 1, passkeys: 1
            ))
            #expect(byUser[kariUser.user.id]?.leftWithNone == false)

            // Una: no role, no session (so no refresh), no portal session, no device, no passkey.
            #expect(try await store.memberships(userID: unaUser.user.id).isEmpty)
            let session = try #require(try await store.session(id: unaUser.session.id))
            #expect(session.revokedAt != nil && session.revokedReason == "membership_ended")
            #expect(try await store.touchPortalSession(idHash: unaUser.portal, idle: 600, now: Self.now) == nil)
            #expect(try await store.activeDevices(userID: unaUser.user.id).isEmpty)
            #expect(try await store.passkeys(userID: unaUser.user.id).isEmpty)
            // Kari keeps HLF and every way in.
            #expect(try await store.memberships(userID: kariUser.user.id).map(\.organisationId) == [hlf.id])
            #expect(try await store.session(id: kariUser.session.id)?.revokedAt == nil)
            #expect(try await store.activeDevices(userID: kariUser.user.id).count == 1)
            #expect(try await store.passkeys(userID: kariUser.user.id).count == 1)
        }
    }

    @Test("Issue 45 item 2: a deleted record first ends its memberships; at another version nothing goes", arguments: TestDatabase.kinds)
    func deletion(kind: DatabaseKind) async throws {
        let vault = try StorageTestKeys.vault()
        try await TestDatabase.withStore(kind) { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let record = try Self.record(nhf.id, Self.values("M-1"), vault: vault)
            try await Self.write(store, adding: [record])
            let holder = try await Self.account(store, holding: record, organisation: nhf.id)
            var renamed = record.values
            renamed.givenName = "Kai"
            let (written, _) = try await Self.write(store, changing: [MemberRecordChange(before: record, values: renamed, personnummer: .keep)])
            // `record` is version 1; the row is at 2 now.
            #expect(try await store.deleteMemberRecord(record, reason: "membership_ended", audit: { _ in [] }, now: Self.now) == nil)
            #expect(try await store.memberRecord(id: record.id) != nil)

            let audit = AuditEvent(occurredAt: Self.now, action: .memberDirectoryDeleted, outcome: "success", subjectType: "member", subjectID: record.id)
            let effects = try #require(try await store.deleteMemberRecord(written[0], reason: "membership_ended", audit: { _ in [audit] }, now: Self.now))
            #expect(effects.ended.map(\.userID) == [holder.user.id] && effects.ended.first?.leftWithNone == true)
            #expect(try await store.memberRecord(id: record.id) == nil)
            #expect(try await store.memberships(userID: holder.user.id).isEmpty)
            #expect(try await store.auditEvents(subjectType: "member", subjectID: record.id).map(\.action) == ["member.directory.deleted"])
        }
    }

    @Test("S22.2: a new role takes effect on the membership; a lasting record goes to the account carrying its number", arguments: TestDatabase.kinds)
    func rolesAndLinks(kind: DatabaseKind) async throws {
        let vault = try StorageTestKeys.vault()
        try await TestDatabase.withStore(kind) { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let hlf = try await store.createOrganisation(slug: "hlf", name: "HLF")
            let record = try Self.record(nhf.id, Self.values("M-1"), vault: vault)
            try await Self.write(store, adding: [record])
            let holder = try await Self.account(store, holding: record, organisation: nhf.id)
            var promoted = record.values
            promoted.role = .orgAdmin
            try await Self.write(store, changing: [MemberRecordChange(before: record, values: promoted, personnummer: .keep)])
            #expect(try await store.memberships(userID: holder.user.id).map(\.role) == [.orgAdmin])

            // An account with Ada's number exists (she is a member of NHF); HLF adds her record.
            let number = try Personnummer(Self.numbers[2])
            let ada = try await store.createUser(displayName: "Ada", personnummer: { try vault.protect(number, record: "user:\($0)") })
            let adaRecord = try Self.record(hlf.id, Self.values("ada"), number: Self.numbers[2], vault: vault)
            let (_, effects) = try await Self.write(store, adding: [adaRecord])
            #expect(effects.linked.map { $0.userID } == [ada.id] && effects.linked.map { $0.recordID } == [adaRecord.id])
            #expect(try await store.memberships(userID: ada.id).map(\.memberRecordId) == [adaRecord.id])

            // She leaves and comes back: the record is hers again at once.
            let (ended, _) = try await Self.write(store, changing: [Self.ending(adaRecord)])
            #expect(try await store.memberships(userID: ada.id).isEmpty)
            var back = ended[0].values
            back.active = true
            let (_, again) = try await Self.write(store, changing: [MemberRecordChange(before: ended[0], values: back, personnummer: .keep)])
            #expect(again.linked.map { $0.userID } == [ada.id])
        }
    }

    @Test("Issue 45 item 1: listing pages oldest first with a total; filters compare user name and email without case", arguments: TestDatabase.kinds)
    func listing(kind: DatabaseKind) async throws {
        let vault = try StorageTestKeys.vault()
        try await TestDatabase.withStore(kind) { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let hlf = try await store.createOrganisation(slug: "hlf", name: "HLF")
            var records: [MemberRecord] = []
            for index in 0..<5 {
                let record = try Self.record(nhf.id, Self.values("M-\(index)"), vault: vault)
                records.append(MemberRecord(
                    id: record.id, organisationID: nhf.id, values: record.values, personnummer: nil, now: Self.now.addingTimeInterval(Double(index))
                ))
            }
            try await Self.write(store, adding: records)
            try await Self.write(store, adding: [try Self.record(hlf.id, Self.values("M-9"), vault: vault)])
            let page = try await store.memberRecords(organisationID: nhf.id, filter: nil, offset: 1, limit: 2)
            #expect(page.total == 5 && page.records.map(\.id) == records[1...2].map(\.id))
            #expect(try await store.memberRecords(organisationID: nhf.id, filter: nil, offset: 10, limit: 2).records.isEmpty)
            #expect(try await store.memberRecords(organisationID: nhf.id, filter: .userName("m-3@EXAMPLE.org"), offset: 0, limit: 10).records.map(\.id) == [records[3].id])
            #expect(try await store.memberRecords(organisationID: nhf.id, filter: .email("M-4@example.ORG"), offset: 0, limit: 10).total == 1)
            #expect(try await store.memberRecords(organisationID: nhf.id, filter: .externalRef("m-4"), offset: 0, limit: 10).total == 0)
            #expect(try await store.memberRecords(organisationID: nhf.id, filter: .externalRef("M-9"), offset: 0, limit: 10).total == 0)
        }
    }

    @Test("Issue 45 item 1: SCIM tokens are kept as hashes, one live name per organisation; a revoked one is not found", arguments: TestDatabase.kinds)
    func scimTokens(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let hash = Data(SHA256.hash(data: Data("pvscim_first".utf8)))
            let audit: @Sendable () -> AuditEvent = { AuditEvent(occurredAt: Self.now, action: .scimTokenCreated, outcome: "success") }
            try await store.insertSCIMToken(SCIMToken(id: "t1", organisationID: nhf.id, name: "Medlemsregister", tokenHash: hash, now: Self.now), audit: audit())
            await #expect(throws: StoreError.duplicate(nil)) {
                try await store.insertSCIMToken(
                    SCIMToken(id: "t2", organisationID: nhf.id, name: "Medlemsregister", tokenHash: Data(repeating: 1, count: 32), now: Self.now), audit: audit()
                )
            }
            await #expect(throws: StoreError.missingReference(nil)) {
                try await store.insertSCIMToken(SCIMToken(id: "t3", organisationID: "nowhere", name: "X", tokenHash: Data(repeating: 2, count: 32), now: Self.now), audit: audit())
            }
            #expect(try await store.scimToken(hash: hash)?.organisationId == nhf.id)
            try await store.markSCIMTokenUsed(id: "t1", now: Self.now)
            #expect(try await store.scimTokens(organisationID: nhf.id).first?.lastUsedAt == Self.now.millisecondsSince1970)

            let revoked = try await store.revokeSCIMToken(organisationID: nhf.id, name: "Medlemsregister", audit: { token in
                AuditEvent(occurredAt: Self.now, action: .scimTokenRevoked, outcome: "success", subjectType: "scim_token", subjectID: token.id)
            }, now: Self.now)
            #expect(revoked?.id == "t1")
            #expect(try await store.scimToken(hash: hash) == nil)
            #expect(try await store.revokeSCIMToken(organisationID: nhf.id, name: "Medlemsregister", audit: { _ in audit() }, now: Self.now) == nil)
            // The name is free again for the replacement.
            try await store.insertSCIMToken(
                SCIMToken(id: "t4", organisationID: nhf.id, name: "Medlemsregister", tokenHash: Data(repeating: 4, count: 32), now: Self.now), audit: audit()
            )
            #expect(try await store.scimTokens(organisationID: nhf.id).map(\.id).sorted() == ["t1", "t4"])
            #expect(try await store.auditEvents(subjectType: "scim_token", subjectID: "t1").map(\.action) == ["scim_token.revoked"])
        }
    }

    /// An account holding `record`, signed in with a session, a portal session, a device and a passkey.
    static func account(
        _ store: PortvaktStore, holding record: MemberRecord, organisation: String
    ) async throws -> (user: User, session: Session, portal: Data) {
        let user = try await store.createUser(displayName: record.fullName)
        _ = try await store.addMembership(userID: user.id, organisationID: organisation, role: record.role, memberRecordID: record.id)
        let session = try await store.createSession(
            userID: user.id, clientID: "portal", amr: ["pwd"], acr: "urn:portvakt:acr:password", authTime: now,
            idleLifetime: 3600, absoluteLifetime: 86_400, now: now
        )
        let portal = Data(SHA256.hash(data: Data(user.id.utf8)))
        try await store.insertPortalSession(PortalSession(idHash: portal, userID: user.id, sessionID: session.id, now: now, idle: 3600, absolute: 86_400))
        _ = try await store.registerDevice(
            userID: user.id, name: "Phone", platform: "ios", biometricKind: "face", publicKeyJWK: "{}", keyThumbprint: "tp-\(user.id)", now: now
        )
        let passkey = Passkey(
            id: UUID().uuidString.lowercased(), userId: user.id, credentialId: Data(user.id.utf8), userHandle: Data(user.id.utf8),
            publicKey: Data([1]), algorithm: -7, signCount: 0, backupEligible: false, backedUp: false, aaguid: Data(count: 16), name: "Key",
            createdAt: now.millisecondsSince1970
        )
        #expect(try await store.insertPasskey(passkey, limit: 10, audit: AuditEvent(occurredAt: now, action: .passkeyRegistered, outcome: "success")))
        #expect(try await store.touchPortalSession(idHash: portal, idle: 600, now: now) != nil)
        return (user, session, portal)
    }
}
