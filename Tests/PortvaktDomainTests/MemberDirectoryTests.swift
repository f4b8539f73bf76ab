import Foundation
import Logging
import Personnummer
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import Testing

/// A migrated SQLite store in a temporary file: the member directory writes through the store's
/// transactions, which an in-memory fake would not prove. (The storage tests run the same
/// writes on PostgreSQL too.)
enum DirectoryStore {
    static let auditKeys = try! AuditKeyRing(text: "test=" + Data(repeating: 5, count: 32).base64EncodedString(), setting: "test")

    static func with(_ body: @escaping @Sendable (PortvaktStore) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-directory-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let logger = Logger(label: "portvakt.test")
        let driver = try await SQLiteDriver(path: path, logger: logger)
        try await driver.whileRunning {
            try await Migrator(driver: driver, logger: logger).migrate()
            try await body(PortvaktStore(driver: driver, auditKeys: auditKeys))
        }
    }
}

/// The directory, its store, keys and an organisation, for one test.
struct DirectoryHarness: Sendable {
    let store: PortvaktStore
    let vault: PersonnummerVault
    let directory: MemberDirectory
    let organisationID: String
    let otherOrganisationID: String
    static let system = DirectoryActor.memberSystem(tokenID: "token-1", name: "Medlemsregister")
    static let numbers = ["15058600048", "15058600129", "15058600390", "15058600471"]

    static func run(_ body: @escaping @Sendable (DirectoryHarness) async throws -> Void) async throws {
        let vault = try Fixtures().keys.vault
        try await DirectoryStore.with { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let hlf = try await store.createOrganisation(slug: "hlf", name: "HLF")
            let mailer = Mailer(store: store, cipher: try Fixtures().keys.cipher, accountURL: { "https://portvakt.example/account" }, now: { Fixtures.now })
            let directory = MemberDirectory(
                store: store, vault: vault, personnummerContext: .production, leaving: MembershipEnding(store: store), mailer: mailer,
                logger: Logger(label: "portvakt.test"), now: { Fixtures.now }
            )
            try await body(DirectoryHarness(store: store, vault: vault, directory: directory, organisationID: nhf.id, otherOrganisationID: hlf.id))
        }
    }

    func create(_ entry: MemberEntry) async throws -> DirectoryMember {
        try await directory.create(entry, in: organisationID, by: Self.system)
    }

    /// Logs in as a BankID user with this number (or a Vipps user with this phone), as the broker does.
    func login(number: String? = nil, phone: String? = nil, subject: String = "subject-1") async throws -> User? {
        let login = IdentityLinker.Login(
            provider: number == nil ? .vipps : .bankid, subject: subject, personnummer: try number.map { try Personnummer($0) },
            phone: IdentityLinker.e164(phone), name: "Kari Nordmann"
        )
        return try await IdentityLinker(store: store, vault: vault).user(for: login, now: Fixtures.now)
    }

    /// Every detail of every audit event of the organisation, joined.
    func auditText() async throws -> String {
        try await store.auditEvents(organisationID: organisationID, limit: 1000).events
            .map { chained in
                chained.event.action + " " + chained.event.details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            }
            .joined(separator: "\n")
    }
}

@Suite("The member directory (SCIM's model), on a SQLite store")
struct MemberDirectoryTests {
    static let kari = MemberEntry(
        externalID: "M-1001", userName: "1001", givenName: "Kari", familyName: "Nordmann", email: "Kari@Example.org",
        phone: "912 34 567", role: .peerMentor, memberNumber: "1001", personnummer: .set(DirectoryHarness.numbers[0])
    )

    @Test("S22.2, S22.3: a created member's personnummer is sealed and indexed at once; her BankID login lands on that record")
    func createThenLogin() async throws {
        try await DirectoryHarness.run { harness in
            let kari = try await harness.create(Self.kari)
            #expect(kari.personnummerOnRecord && kari.version == 1 && kari.active)
            #expect(kari.fullName == "Kari Nordmann" && kari.email == "kari@example.org" && kari.phone == "+4791234567")
            #expect(kari.entry == MemberEntry(
                externalID: "M-1001", userName: "1001", givenName: "Kari", familyName: "Nordmann", email: "kari@example.org",
                phone: "+4791234567", memberNumber: "1001"
            ))
            let record = try #require(try await harness.store.memberRecord(id: kari.id))
            let sealed = try #require(record.personnummer)
            #expect(try harness.vault.open(sealed.sealed, record: MemberRecord.personnummerContext(recordID: kari.id)).digits == DirectoryHarness.numbers[0])

            let user = try #require(try await harness.login(number: DirectoryHarness.numbers[0]))
            #expect(try await harness.store.memberships(userID: user.id).map(\.memberRecordId) == [kari.id])
        }
    }

    @Test("S22.2: a member created without a number is found by a Vipps login's phone (E.164 as Vipps gives it)")
    func phoneLogin() async throws {
        try await DirectoryHarness.run { harness in
            var entry = Self.kari
            entry.personnummer = .keep
            let kari = try await harness.create(entry)
            let user = try #require(try await harness.login(phone: "4791234567"))
            #expect(try await harness.store.memberships(userID: user.id).map(\.memberRecordId) == [kari.id])
        }
    }

    @Test("Issue 45 item 1: the phone numbers a member system writes, in E.164", arguments: [
        ("+47 912 34 567", "+4791234567"), ("91234567", "+4791234567"), ("0047 91234567", "+4791234567"),
        ("(+46) 70-123 45 67", nil), ("+46 70-123 45 67", "+46701234567"), ("1234", nil), ("+47 912 34 567 ext 2", nil), ("4791234567", nil),
    ] as [(String, String?)])
    func phoneNumbers(text: String, expected: String?) async throws {
        try await DirectoryHarness.run { harness in
            var entry = Self.kari
            entry.phone = text
            entry.personnummer = .keep
            let written = entry
            if let expected {
                let phone = try await harness.create(written).phone
                #expect(phone == expected)
            } else {
                await #expect(throws: DirectoryError(.invalidValue, field: "phoneNumbers", reason: Self.phoneReason)) { try await harness.create(written) }
            }
        }
    }

    static let phoneReason = "is not a phone number: write it with its country code (+47 912 34 567) or as eight Norwegian digits"

    @Test("Issue 45 item 1: bad values are refused with their attribute and a plain reason; nothing is written")
    func invalidValues() async throws {
        try await DirectoryHarness.run { harness in
            func refusal(_ change: (inout MemberEntry) -> Void) async -> DirectoryError? {
                var entry = Self.kari
                change(&entry)
                do {
                    _ = try await harness.create(entry)
                    return nil
                } catch {
                    return error as? DirectoryError
                }
            }
            let personnummer = await refusal { $0.personnummer = .set("15058600049") }
            #expect(personnummer?.kind == .invalidValue && personnummer?.field == "personnummer")
            #expect(personnummer.map { !$0.description.contains("1505860004") } == true)
            // A synthetic (test) number is refused in production.
            #expect(await refusal { $0.personnummer = .set("15858600021") }?.field == "personnummer")
            #expect(await refusal { $0.email = "not an address" }?.field == "emails")
            #expect(await refusal { $0.externalID = "  " }?.field == "externalId")
            #expect(await refusal { $0.externalID = String(repeating: "x", count: 129) }?.field == "externalId")
            #expect(await refusal { $0.userName = "" }?.field == "userName")
            #expect(await refusal { $0.givenName = "Kari\nInjected" }?.field == "name")
            let written = try await harness.directory.members(in: harness.organisationID, filter: nil, startIndex: 1, count: 10).total
            #expect(written == 0)
        }
    }

    @Test("Issue 45 item 1: externalId, userName (without case) and personnummer are unique in an organisation, not across")
    func uniqueness() async throws {
        try await DirectoryHarness.run { harness in
            _ = try await harness.create(Self.kari)
            func refusal(_ entry: MemberEntry, in organisation: String? = nil) async -> DirectoryError? {
                do {
                    _ = try await harness.directory.create(entry, in: organisation ?? harness.organisationID, by: DirectoryHarness.system)
                    return nil
                } catch {
                    return error as? DirectoryError
                }
            }
            let other = MemberEntry(externalID: "M-2", userName: "2", personnummer: .set(DirectoryHarness.numbers[1]))
            var sameExternal = other
            sameExternal.externalID = "M-1001"
            var sameUserName = other
            sameUserName.userName = "1001"
            var sameNumber = other
            sameNumber.personnummer = .set(DirectoryHarness.numbers[0])
            #expect(await refusal(sameExternal) == DirectoryError(.uniqueness, field: "externalId", reason: "another member of the organisation has this externalId"))
            #expect(await refusal(sameUserName)?.field == "userName")
            #expect(await refusal(sameNumber)?.field == "personnummer")
            #expect(await refusal(Self.kari, in: harness.otherOrganisationID) == nil)
            #expect(await refusal(other, in: "no-such-organisation")?.kind == .notFound)
        }
    }

    @Test("Issue 45 item 1: a replace honours If-Match, moves the version on, and writing the same again changes nothing")
    func replaceAndVersions() async throws {
        try await DirectoryHarness.run { harness in
            let kari = try await harness.create(Self.kari)
            let same = try await harness.directory.replace(id: kari.id, with: kari.entry, ifVersion: 1, in: harness.organisationID, by: DirectoryHarness.system)
            #expect(same == kari)
            var moved = kari.entry
            moved.email = "kari@nordmann.no"
            moved.role = .coordinator
            let changed = try await harness.directory.replace(id: kari.id, with: moved, ifVersion: 1, in: harness.organisationID, by: DirectoryHarness.system)
            #expect(changed.version == 2 && changed.email == "kari@nordmann.no" && changed.role == .coordinator && changed.personnummerOnRecord)
            await #expect(throws: DirectoryError.self) {
                try await harness.directory.replace(id: kari.id, with: Self.kari, ifVersion: 1, in: harness.organisationID, by: DirectoryHarness.system)
            }
            #expect(try await harness.directory.member(id: kari.id, in: harness.organisationID) == changed)
            // Without a name the record keeps its full name; `remove` takes the number away.
            var bare = changed.entry
            bare.givenName = nil
            bare.familyName = nil
            bare.personnummer = .remove
            let unnamed = try await harness.directory.replace(id: kari.id, with: bare, ifVersion: nil, in: harness.organisationID, by: DirectoryHarness.system)
            #expect(unnamed.fullName == "Kari Nordmann" && !unnamed.personnummerOnRecord && unnamed.version == 3)
        }
    }

    @Test("Issue 45 item 1: a token never reaches another organisation's member")
    func otherOrganisation() async throws {
        try await DirectoryHarness.run { harness in
            let kari = try await harness.create(Self.kari)
            let hlf = harness.otherOrganisationID
            #expect(try await harness.directory.member(id: kari.id, in: hlf) == nil)
            await #expect(throws: DirectoryError(.notFound, reason: "no member with this id in the organisation")) {
                try await harness.directory.replace(id: kari.id, with: kari.entry, ifVersion: nil, in: hlf, by: DirectoryHarness.system)
            }
            await #expect(throws: DirectoryError.self) { try await harness.directory.delete(id: kari.id, ifVersion: nil, in: hlf, by: DirectoryHarness.system) }
            #expect(try await harness.directory.members(in: hlf, filter: .externalID("M-1001"), startIndex: 1, count: 10).total == 0)
            #expect(try await harness.directory.member(id: kari.id, in: harness.organisationID) != nil)
        }
    }

    @Test("S22.2: active false ends the membership and, with none left, every session; audited with the member system, no number")
    func leavingAndComingBack() async throws {
        try await DirectoryHarness.run { harness in
            let kari = try await harness.create(Self.kari)
            let user = try #require(try await harness.login(number: DirectoryHarness.numbers[0]))
            let session = try await harness.store.createSession(
                userID: user.id, clientID: "no.portvakt.app", amr: ["bankid"], acr: "urn:bankid:loa:high", authTime: Fixtures.now,
                idleLifetime: 3600, absoluteLifetime: 86_400, now: Fixtures.now
            )
            var leaving = kari.entry
            leaving.active = false
            let ended = try await harness.directory.replace(id: kari.id, with: leaving, ifVersion: nil, in: harness.organisationID, by: DirectoryHarness.system)
            #expect(!ended.active && ended.version == 2)
            #expect(try await harness.store.memberships(userID: user.id).isEmpty)
            #expect(try await harness.store.session(id: session.id)?.revokedReason == MembershipEnding.sessionReason)
            #expect(try await harness.store.memberRecords(personnummerIndex: harness.vault.blindIndex(Personnummer(DirectoryHarness.numbers[0]))).isEmpty)

            let trail = try await harness.auditText()
            #expect(trail.contains("member.directory.ended") && trail.contains("user.membership.ended"))
            #expect(trail.contains("actor_name=Medlemsregister") && trail.contains("actor=member_system") && trail.contains("left_with_none=true"))
            for number in DirectoryHarness.numbers { #expect(!trail.contains(number)) }

            // Back again: the account carrying the number has the record at once.
            var back = ended.entry
            back.active = true
            _ = try await harness.directory.replace(id: kari.id, with: back, ifVersion: 2, in: harness.organisationID, by: DirectoryHarness.system)
            #expect(try await harness.store.memberships(userID: user.id).map(\.memberRecordId) == [kari.id])
            #expect(try await harness.auditText().contains("member.directory.reactivated"))
        }
    }

    @Test("Issue 45 item 2: DELETE ends the membership, then the record is gone")
    func deletion() async throws {
        try await DirectoryHarness.run { harness in
            let kari = try await harness.create(Self.kari)
            let user = try #require(try await harness.login(number: DirectoryHarness.numbers[0]))
            await #expect(throws: DirectoryError.self) {
                try await harness.directory.delete(id: kari.id, ifVersion: 7, in: harness.organisationID, by: DirectoryHarness.system)
            }
            try await harness.directory.delete(id: kari.id, ifVersion: 1, in: harness.organisationID, by: DirectoryHarness.system)
            #expect(try await harness.directory.member(id: kari.id, in: harness.organisationID) == nil)
            #expect(try await harness.store.memberships(userID: user.id).isEmpty)
            #expect(try await harness.auditText().contains("member.directory.deleted"))
        }
    }

    @Test("Issue 45 item 1: listing pages with a total and filters on userName, externalId and email")
    func listing() async throws {
        try await DirectoryHarness.run { harness in
            for index in 1...5 {
                _ = try await harness.create(MemberEntry(externalID: "M-\(index)", userName: "member\(index)@example.org", email: "member\(index)@example.org"))
            }
            let page = try await harness.directory.members(in: harness.organisationID, filter: nil, startIndex: 2, count: 2)
            #expect(page.total == 5 && page.page.count == 2)
            #expect(try await harness.directory.members(in: harness.organisationID, filter: nil, startIndex: 0, count: 5000).page.count == 5)
            #expect(try await harness.directory.members(in: harness.organisationID, filter: nil, startIndex: 1, count: 0).page.isEmpty)
            let byName = try await harness.directory.members(in: harness.organisationID, filter: .userName("MEMBER3@example.org"), startIndex: 1, count: 10)
            #expect(byName.page.map(\.externalID) == ["M-3"])
            #expect(try await harness.directory.members(in: harness.organisationID, filter: .externalID("M-4"), startIndex: 1, count: 10).total == 1)
            #expect(try await harness.directory.members(in: harness.organisationID, filter: .email("Member5@Example.org"), startIndex: 1, count: 10).total == 1)
        }
    }

    @Test("S22.3: a personnummer never shows in a description, interpolation or dump")
    func personnummerIsWriteOnly() {
        let entry = Self.kari
        var dumped = ""
        dump(entry, to: &dumped)
        for text in ["\(entry)", String(describing: entry.personnummer), String(reflecting: entry), dumped] {
            #expect(!text.contains(DirectoryHarness.numbers[0]))
        }
    }
}
