import Foundation
import Personnummer
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer
import PortvaktDomain
import PortvaktModels

/// DESIGN.md "Identity linking": provider account, then personnummer, then member record by
/// personnummer or phone, else refuse; the database settles races.
@Suite("Identity linking")
struct IdentityLinkingTests {
    static func vault() throws -> PersonnummerVault {
        try PersonnummerVault(cipher: FieldCipher(keys: [.init(id: "k1", bytes: Data(repeating: 7, count: 32))]), indexKey: Data(repeating: 9, count: 32))
    }

    static func member(_ store: PortvaktStore, vault: PersonnummerVault, number: Personnummer?, phone: String?, name: String = "Test Person") async throws -> MemberRecord {
        let organisation = try await store.createOrganisation(slug: "org-\(UUID().uuidString.prefix(8))", name: "Org")
        return try await store.createMemberRecord(
            organisationID: organisation.id, NewMemberRecord(fullName: name, phone: phone, role: .coordinator),
            personnummer: number.map { n in { id in try vault.protect(n, record: MemberRecord.personnummerContext(recordID: id)) } }
        )
    }

    @Test("A first login whose member email already names another account succeeds, without joining that account", arguments: TestDatabase.kinds)
    func emailTakenByAnotherAccount(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let vault = try Self.vault()
            let number = try Personnummer("12438510085", context: .test)
            let organisation = try await store.createOrganisation(slug: "org-email", name: "Org")
            _ = try await store.createMemberRecord(
                organisationID: organisation.id, NewMemberRecord(fullName: "Test Person", email: "taken@example.org", phone: nil, role: .peerMentor),
                personnummer: { id in try vault.protect(number, record: MemberRecord.personnummerContext(recordID: id)) }
            )
            let other = try await store.createUser(displayName: "Password account", email: "taken@example.org")
            let login = IdentityLinker.Login(provider: .bankid, subject: "first-login", personnummer: number, phone: nil, name: nil)
            let user = try await IdentityLinker(store: store, vault: vault).user(for: login, now: Date())
            #expect(user != nil && user?.id != other.id)
            #expect(user?.email == nil)
            #expect(try await store.user(email: "taken@example.org")?.id == other.id)
        }
    }

    @Test("Concurrent first logins of one person create exactly one user", arguments: TestDatabase.kinds)
    func concurrentFirstLogins(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let vault = try Self.vault()
            let number = try Personnummer("12438510085", context: .test)
            _ = try await Self.member(store, vault: vault, number: number, phone: nil)
            let linker = IdentityLinker(store: store, vault: vault)
            let login = IdentityLinker.Login(provider: .bankid, subject: "same-person", personnummer: number, phone: nil, name: nil)
            let ids = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<8 { group.addTask { try await linker.user(for: login, now: Date())?.id } }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(Set(ids).count == 1)
            #expect(ids.allSatisfy { $0 != nil })
            let users = try await store.driver.withSession { db in try await db.select().column("id").from("users").all().count }
            #expect(users == 1)
        }
    }

    @Test("The order: provider account, then the same personnummer (a second provider), then member records by phone", arguments: TestDatabase.kinds)
    func order(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let vault = try Self.vault()
            let number = try Personnummer("12438510085", context: .test)
            let record = try await Self.member(store, vault: vault, number: number, phone: "+4790000099")
            let linker = IdentityLinker(store: store, vault: vault)
            let viaBankID = try await linker.user(for: .init(provider: .bankid, subject: "b-1", personnummer: number, phone: nil, name: nil), now: Date())
            let viaVipps = try await linker.user(for: .init(provider: .vipps, subject: "v-1", personnummer: number, phone: nil, name: nil), now: Date())
            #expect(viaBankID?.id != nil && viaBankID?.id == viaVipps?.id, "the same personnummer reaches the same user")
            let memberships = try await store.memberships(userID: try #require(viaBankID?.id))
            #expect(memberships.map(\.memberRecordId) == [record.id])

            // Review III item 1: a login without a personnummer (Vipps `nin` not approved) whose phone
            // matches a record someone holds (and with a number) is not that someone.
            let byPhone = try await linker.user(for: .init(provider: .vipps, subject: "v-2", personnummer: nil, phone: "+4790000099", name: "Test Person"), now: Date())
            #expect(byPhone == nil, "a phone never joins an account")
            #expect(try await store.user(provider: .vipps, subject: "v-2") == nil)
            #expect(try await store.auditEvents(subjectType: "identity", subjectID: "vipps:v-2").map(\.outcome) == ["phone_match_without_number"])
            // A free record (no number, no holder) is still claimed by phone, with the same name (issue 58).
            let free = try await store.createMemberRecord(organisationID: record.organisationId, NewMemberRecord(fullName: "Fri Person", phone: "+4790000097", role: .peerMentor))
            let otherName = try await linker.user(for: .init(provider: .vipps, subject: "v-5", personnummer: nil, phone: "+4790000097", name: "Annen Person"), now: Date())
            #expect(otherName == nil, "a phone without the record's name takes nothing")
            #expect(try await store.auditEvents(subjectType: "identity", subjectID: "vipps:v-5").map(\.outcome) == ["phone_match_name_differs"])
            let claimed = try #require(try await linker.user(for: .init(provider: .vipps, subject: "v-4", personnummer: nil, phone: "+4790000097", name: "Fri Kristine Person"), now: Date()))
            #expect(try await store.memberships(userID: claimed.id).map(\.memberRecordId) == [free.id])
            let stranger = try await linker.user(for: .init(provider: .vipps, subject: "v-3", personnummer: nil, phone: "+4790000098", name: nil), now: Date())
            #expect(stranger == nil)
            #expect(IdentityLinker.e164("4790000099") == "+4790000099")
        }
    }
}

extension IdentityLinkingTests {
    @Test("Review III item 1: a phone match never links a record with a number or one an account holds; with the login's personnummer the mismatch is on the review list, audited both ways", arguments: TestDatabase.kinds)
    func phoneMatchWithAnotherNumber(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let vault = try Self.vault()
            let linker = IdentityLinker(store: store, vault: vault)
            let ingridNumber = try Personnummer("23466814679", context: .test)
            let unaNumber = try Personnummer("26449933086", context: .test)
            // Ingrid's record carries the phone number Una now owns.
            let ingridRecord = try await Self.member(store, vault: vault, number: ingridNumber, phone: "+4790000011")
            // And a record of another organisation without a number, which her first login joins by phone.
            let other = try await store.createOrganisation(slug: "org-phone-b", name: "Org B")
            let empty = try await store.createMemberRecord(organisationID: other.id, NewMemberRecord(fullName: "Ingrid Hansen", phone: "+4790000022", role: .orgAdmin))
            let ingrid = try #require(try await linker.user(for: .init(provider: .bankid, subject: "ingrid-b", personnummer: ingridNumber, phone: "+4790000022", name: "Ingrid Hansen"), now: Date()))
            #expect(Set(try await store.memberships(userID: ingrid.id).compactMap(\.memberRecordId)) == [ingridRecord.id, empty.id])

            // Phone and name both match (a namesake), so the mismatch of numbers goes to the review.
            let una = try await linker.user(for: .init(provider: .vipps, subject: "una-v", personnummer: unaNumber, phone: "+4790000011", name: "Test Person"), now: Date())
            #expect(una == nil, "not linked: not_registered")
            #expect(try await store.user(provider: .vipps, subject: "una-v") == nil)
            #expect(try await store.identityProviders(userID: ingrid.id) == ["bankid"], "Ingrid's account gained no Vipps login")
            let review = try await store.memberSyncEntries(organisationID: ingridRecord.organisationId, outcome: .conflict, status: "open")
            #expect(review.map(\.source) == ["vipps-phone-match"])
            #expect(review.first?.memberRecordId == ingridRecord.id && review.first?.userId == ingrid.id)
            #expect(try await store.auditEvents(subjectType: "member", subjectID: ingridRecord.id).map(\.action) == ["member.link.refused"])
            #expect(try await store.auditEvents(subjectType: "identity", subjectID: "vipps:una-v").map(\.action) == ["login.link.refused"])

            // A record without a number, held by an account with another number: not linked, nothing written back.
            let stranger = try await linker.user(for: .init(provider: .bankid, subject: "una-b", personnummer: unaNumber, phone: "+4790000022", name: "Ingrid Hansen"), now: Date())
            #expect(stranger == nil)
            #expect(try await store.memberships(userID: ingrid.id).compactMap(\.memberRecordId).count == 2, "nothing joined Ingrid's account")

            // A record with no number and no holder still links by phone.
            let free = try await store.createMemberRecord(organisationID: other.id, NewMemberRecord(fullName: "Una Utenfor", phone: "+4790000033", role: .peerMentor))
            let linked = try await linker.user(for: .init(provider: .vipps, subject: "una-v2", personnummer: unaNumber, phone: "+4790000033", name: "Una Utenfor"), now: Date())
            #expect(linked != nil && linked?.id != ingrid.id)
            #expect(try await store.memberships(userID: try #require(linked?.id)).compactMap(\.memberRecordId) == [free.id])

            // An administrator took Per's number into a record Ingrid's account holds: Per's login
            // finds the record by number, never the account of another person's number; the
            // record leaves Ingrid's account for the review, and Per's login takes it (issue 58).
            let perNumber = try Personnummer("02829116912", context: .test)
            var writes = MemberSyncWrites()
            writes.personnummerUpdates.append((empty.id, try vault.protect(perNumber, record: MemberRecord.personnummerContext(recordID: empty.id))))
            try await store.recordMemberSync(writes, now: Date())
            let per = try #require(try await linker.user(for: .init(provider: .vipps, subject: "per-v", personnummer: perNumber, phone: nil, name: nil), now: Date()))
            #expect(per.id != ingrid.id)
            #expect(try await store.identityProviders(userID: ingrid.id) == ["bankid"])
            #expect(try await store.memberships(userID: ingrid.id).compactMap(\.memberRecordId) == [ingridRecord.id])
            #expect(try await store.memberships(userID: per.id).compactMap(\.memberRecordId) == [empty.id])
            let detached = try await store.memberSyncEntries(organisationID: other.id, outcome: .conflict, status: "open")
            #expect(detached.filter { $0.source == "vipps-login-detached" }.map(\.userId) == [ingrid.id])
        }
    }

    @Test("Issue 45 item 4: erasing an account takes its number from the review entries its refused phone-match logins left under another member's account, and closes them", arguments: TestDatabase.kinds)
    func erasureTakesTheNumberOfARefusedPhoneMatch(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let vault = try Self.vault()
            let linker = IdentityLinker(store: store, vault: vault)
            let ingridNumber = try Personnummer("23466814679", context: .test)
            let unaNumber = try Personnummer("26449933086", context: .test)
            // Ingrid's record carries a namesake's name.
            let ingridRecord = try await Self.member(store, vault: vault, number: ingridNumber, phone: "+4790000011", name: "Una Utenfor")
            let ingrid = try #require(try await linker.user(for: .init(provider: .bankid, subject: "ingrid-b", personnummer: ingridNumber, phone: nil, name: nil), now: Date()))
            // Una's Vipps login matches Ingrid's record by phone and name only: an entry under Ingrid's account, with Una's number.
            #expect(try await linker.user(for: .init(provider: .vipps, subject: "una-v", personnummer: unaNumber, phone: "+4790000011", name: "Una Utenfor"), now: Date()) == nil)
            // Later the same Vipps account gets a record of its own, and then Una asks to be erased.
            let other = try await store.createOrganisation(slug: "org-erase-b", name: "Org B")
            _ = try await store.createMemberRecord(organisationID: other.id, NewMemberRecord(fullName: "Una Utenfor", phone: "+4790000033", role: .peerMentor))
            let una = try #require(try await linker.user(for: .init(provider: .vipps, subject: "una-v", personnummer: unaNumber, phone: "+4790000033", name: "Una Utenfor"), now: Date()))
            let before = try await store.memberSyncEntries(organisationID: ingridRecord.organisationId, outcome: .conflict, status: "open")
            #expect(before.count == 1 && before.first?.userId == ingrid.id && before.first?.loginPersonnummer != nil)

            let erased = try await store.eraseAccount(userID: una.id, audit: { _ in
                AuditEvent(occurredAt: Date(), action: .userErased, outcome: "erased", subjectType: "user", subjectID: una.id, source: "cli")
            }, now: Date())
            #expect(erased != nil)
            let after = try await store.memberSyncEntries(organisationID: ingridRecord.organisationId, outcome: .conflict, status: nil)
            #expect(after.count == 1)
            #expect(after.first?.loginPersonnummer == nil && after.first?.status == "resolved", "her number is gone from Ingrid's entry")
            #expect(after.first?.userId == ingrid.id, "the entry stays Ingrid's record's")
            #expect(try await store.memberSyncEntries(organisationID: ingridRecord.organisationId, outcome: .conflict, status: "open").isEmpty)
        }
    }
}

@Suite("Login throttle")
struct LoginThrottleTests {
    @Test("Five free failures per account, then waits that double up to 15 minutes; success clears the account", arguments: TestDatabase.kinds)
    func growingWaits(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let throttle = LoginThrottle(store: store, hmacKey: ThrottleKeyTests.hmacKey)
            let start = Date(timeIntervalSince1970: 1_000_000)
            let account = LoginThrottle.Key.account("a@example.no")
            for _ in 0..<4 { try await throttle.recordFailure([account], now: start) }
            #expect(try await throttle.blockedUntil([account], now: start) == nil)
            try await throttle.recordFailure([account], now: start)
            #expect(try await throttle.blockedUntil([account], now: start) == start.addingTimeInterval(5))
            try await throttle.recordFailure([account], now: start.addingTimeInterval(6))
            #expect(try await throttle.blockedUntil([account], now: start.addingTimeInterval(6)) == start.addingTimeInterval(16))
            for step in 0..<20 { try await throttle.recordFailure([account], now: start.addingTimeInterval(20 + Double(step))) }
            let blocked = try await throttle.blockedUntil([account], now: start.addingTimeInterval(40))
            #expect(blocked == start.addingTimeInterval(39 + 900))
            try await throttle.recordSuccess(account)
            #expect(try await throttle.blockedUntil([account], now: start.addingTimeInterval(40)) == nil)
            // An hour without failures starts over.
            for _ in 0..<5 { try await throttle.recordFailure([account], now: start) }
            try await throttle.recordFailure([account], now: start.addingTimeInterval(3601 + 900))
            #expect(try await throttle.blockedUntil([account], now: start.addingTimeInterval(3601 + 900)) == nil)
        }
    }

    @Test("Failures counted at the same moment all count (atomic increments in the database), and the table holds no email or address", arguments: TestDatabase.kinds)
    func sharedCounters(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))  // whole milliseconds, as stored
            let address = LoginThrottle.Key.address("203.0.113.9")
            let account = LoginThrottle.Key.account("victim@example.no")
            // Each instance builds its own throttle, under the key they share.
            let instance: @Sendable () -> LoginThrottle = { LoginThrottle(store: store, hmacKey: ThrottleKeyTests.hmacKey) }
            // 29 failures at once: one short of the address's 30 free failures.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<29 {
                    group.addTask { try await instance().recordFailure([address], now: start.addingTimeInterval(Double(index) / 1000)) }
                }
                try await group.waitForAll()
            }
            #expect(try await instance().blockedUntil([address], now: start) == nil)
            try await instance().recordFailure([address, account], now: start.addingTimeInterval(1))
            #expect(try await instance().blockedUntil([account, address], now: start.addingTimeInterval(1)) == start.addingTimeInterval(6))
            let keys = try await store.driver.withSession { db in
                try await db.select().column("key").from("login_throttles").all().map { try $0.decode(column: "key", as: String.self) }
            }
            #expect(keys.count == 2)
            #expect(!keys.contains { $0.contains("203.0.113") || $0.contains("victim") })
            #expect(try await store.purgeStaleThrottles(now: start.addingTimeInterval(86400 + 60)) == 2)
        }
    }
}
