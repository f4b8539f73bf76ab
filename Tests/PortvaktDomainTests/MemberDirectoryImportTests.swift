import Foundation
import Personnummer
import PortvaktCore
import PortvaktDomain
import PortvaktStorage
import Testing

@Suite("Member imports: plan, then apply in one transaction (S22.1), on a SQLite store")
struct MemberDirectoryImportTests {
    static let file = DirectoryActor.importFile("medlemmer.csv")
    static let numbers = DirectoryHarness.numbers

    static func entry(_ id: String, number: String? = nil, role: Role = .peerMentor, email: String? = nil) -> MemberEntry {
        MemberEntry(
            externalID: id, userName: id.lowercased(), givenName: id, familyName: "Medlem", email: email ?? "\(id.lowercased())@example.org",
            role: role, memberNumber: id.lowercased(), personnummer: number.map { .set($0) } ?? .keep
        )
    }

    static func lines(_ entries: [MemberEntry]) -> [(line: Int, entry: MemberEntry)] {
        entries.enumerated().map { (line: $0.offset + 2, entry: $0.element) }
    }

    @Test("S22.1: a dry run writes nothing; applying writes all; the same file again changes nothing")
    func dryRunApplyAgain() async throws {
        try await DirectoryHarness.run { harness in
            let file = Self.lines([Self.entry("UNA", number: Self.numbers[0], role: .orgAdmin), Self.entry("KARI", number: Self.numbers[1])])
            let plan = try await harness.directory.plan(file, in: harness.organisationID, removeMissing: false)
            #expect(plan.errors.isEmpty && plan.additions.map(\.externalID) == ["UNA", "KARI"] && plan.changes.isEmpty && plan.removals.isEmpty)
            #expect(try await harness.directory.members(in: harness.organisationID, filter: nil, startIndex: 1, count: 10).total == 0)

            try await harness.directory.apply(plan, in: harness.organisationID, by: Self.file)
            let una = try #require(try await harness.directory.members(in: harness.organisationID, filter: .externalID("UNA"), startIndex: 1, count: 1).page.first)
            #expect(una.role == .orgAdmin && una.personnummerOnRecord && una.userName == "una")

            let again = try await harness.directory.plan(file, in: harness.organisationID, removeMissing: true)
            #expect(again.isEmpty && again.errors.isEmpty)
            let trail = try await harness.auditText()
            #expect(trail.contains("member.directory.imported") && trail.contains("added=2") && trail.contains("actor_name=medlemmer.csv"))
            #expect(trail.contains("member.directory.created"))  // the administrator, one by one
            for number in Self.numbers { #expect(!trail.contains(number)) }

            // Una's login finds her record (S23.1: the first administrator comes from the import).
            let user = try #require(try await harness.login(number: Self.numbers[0]))
            #expect(try await harness.store.memberships(userID: user.id).map(\.role) == [.orgAdmin])
        }
    }

    @Test("S22.1: every bad line is named with its number and reason, and nothing is applied")
    func badLines() async throws {
        try await DirectoryHarness.run { harness in
            _ = try await harness.create(MemberEntry(externalID: "OLD", userName: "taken", personnummer: .set(Self.numbers[2])))
            var invalidEmail = Self.entry("E")
            invalidEmail.email = "no address"
            var takenName = Self.entry("T")
            takenName.userName = "TAKEN"
            let file = Self.lines([
                Self.entry("A", number: "15058600049"),  // line 2: check digit
                Self.entry("A"),  // line 3: the external id of line 2
                Self.entry("B", number: Self.numbers[2]),  // line 4: OLD's number
                takenName,  // line 5: OLD's user name, in other letters
                invalidEmail,  // line 6
                Self.entry("C", number: Self.numbers[3]),  // line 7: good
                Self.entry("D", number: Self.numbers[3]),  // line 8: line 7's number
            ])
            let plan = try await harness.directory.plan(file, in: harness.organisationID, removeMissing: false)
            #expect(plan.errors.map(\.line) == [2, 3, 4, 5, 6, 8])
            #expect(plan.errors.first { $0.line == 3 }?.reason == "externalId: A is on line 2 too")
            #expect(plan.errors.first { $0.line == 4 }?.reason == "personnummer: the number is already on the member with externalId OLD")
            #expect(plan.errors.first { $0.line == 8 }?.reason == "personnummer: the number is already on line 7")
            for error in plan.errors {
                for number in Self.numbers + ["15058600049"] { #expect(!error.reason.contains(number)) }
            }
            await #expect(throws: DirectoryError.self) { try await harness.directory.apply(plan, in: harness.organisationID, by: Self.file) }
            #expect(try await harness.directory.members(in: harness.organisationID, filter: nil, startIndex: 1, count: 10).total == 1)
        }
    }

    @Test("S22.1: changes are only real differences; --remove-missing ends (keeps) the records absent from the file")
    func changesAndRemovals() async throws {
        try await DirectoryHarness.run { harness in
            let first = Self.lines([Self.entry("A"), Self.entry("B"), Self.entry("C", number: Self.numbers[0])])
            try await harness.directory.apply(try await harness.directory.plan(first, in: harness.organisationID, removeMissing: false), in: harness.organisationID, by: Self.file)
            let user = try #require(try await harness.login(number: Self.numbers[0]))

            // Written differently but the same: an email in capitals is no change.
            var sameA = Self.entry("A")
            sameA.email = "A@EXAMPLE.ORG"
            let second = Self.lines([sameA, Self.entry("B", email: "b@nordmann.no")])
            let keep = try await harness.directory.plan(second, in: harness.organisationID, removeMissing: false)
            #expect(keep.changes.map { $0.before.externalID } == ["B"] && keep.changes.first?.after.email == "b@nordmann.no" && keep.removals.isEmpty)
            let remove = try await harness.directory.plan(second, in: harness.organisationID, removeMissing: true)
            #expect(remove.removals.map(\.externalID) == ["C"])

            try await harness.directory.apply(remove, in: harness.organisationID, by: Self.file)
            let c = try #require(try await harness.directory.members(in: harness.organisationID, filter: .externalID("C"), startIndex: 1, count: 1).page.first)
            #expect(!c.active)
            #expect(try await harness.store.memberships(userID: user.id).isEmpty)
            #expect(try await harness.directory.plan(second, in: harness.organisationID, removeMissing: true).isEmpty)
            // The full file again brings C back.
            #expect(try await harness.directory.plan(first, in: harness.organisationID, removeMissing: true).changes.map { $0.before.externalID } == ["B", "C"])
        }
    }

    @Test("S22.1: a file may swap personnummer and user names between its records")
    func swaps() async throws {
        try await DirectoryHarness.run { harness in
            let first = Self.lines([Self.entry("A", number: Self.numbers[0]), Self.entry("B", number: Self.numbers[1])])
            try await harness.directory.apply(try await harness.directory.plan(first, in: harness.organisationID, removeMissing: false), in: harness.organisationID, by: Self.file)
            var a = Self.entry("A", number: Self.numbers[1])
            var b = Self.entry("B", number: Self.numbers[0])
            a.userName = "b"
            b.userName = "a"
            let plan = try await harness.directory.plan(Self.lines([a, b]), in: harness.organisationID, removeMissing: false)
            #expect(plan.errors.isEmpty && plan.changes.count == 2)
            try await harness.directory.apply(plan, in: harness.organisationID, by: Self.file)
            let index = harness.vault.blindIndex(try Personnummer(Self.numbers[1]))
            let holder = try await harness.store.memberRecords(personnummerIndex: index).map(\.externalRef)
            #expect(holder == ["A"])
        }
    }

    @Test("S22.1: a plan made before another writer changed a record writes nothing at all")
    func staleplan() async throws {
        try await DirectoryHarness.run { harness in
            let first = Self.lines([Self.entry("A")])
            try await harness.directory.apply(try await harness.directory.plan(first, in: harness.organisationID, removeMissing: false), in: harness.organisationID, by: Self.file)
            let plan = try await harness.directory.plan(Self.lines([Self.entry("A", email: "a@nordmann.no"), Self.entry("N")]), in: harness.organisationID, removeMissing: false)
            let a = try #require(plan.changes.first?.before)
            var scim = a.entry
            scim.role = .coordinator
            _ = try await harness.directory.replace(id: a.id, with: scim, ifVersion: nil, in: harness.organisationID, by: DirectoryHarness.system)

            await #expect(throws: DirectoryError.self) { try await harness.directory.apply(plan, in: harness.organisationID, by: Self.file) }
            #expect(try await harness.directory.members(in: harness.organisationID, filter: .externalID("N"), startIndex: 1, count: 1).total == 0)
            await #expect(throws: DirectoryError.self) { try await harness.directory.apply(plan, in: harness.otherOrganisationID, by: Self.file) }
        }
    }
}

@Suite("SCIM tokens (issue 45 item 1), on a SQLite store")
struct SCIMTokensTests {
    @Test("Issue 45 item 1: a token is shown once, kept as a hash, bound to its organisation, and revocable")
    func lifecycle() async throws {
        try await DirectoryHarness.run { harness in
            let tokens = SCIMTokens(store: harness.store, now: { Fixtures.now })
            let (token, id) = try await tokens.create(organisationID: harness.organisationID, name: "Medlemsregister")
            #expect(token.hasPrefix("pvscim_") && token.count == 50)
            #expect(try await tokens.verify(token).map { [$0.organisationID, $0.tokenID, $0.name] } == [harness.organisationID, id, "Medlemsregister"])
            #expect(try await tokens.verify(token + "x") == nil)
            #expect(try await tokens.verify("pvscim_" + String(repeating: "A", count: 43)) == nil)
            #expect(try await tokens.list(organisationID: harness.organisationID).map { $0.lastUsedAt } == [Fixtures.now])

            await #expect(throws: DirectoryError(.uniqueness, field: "name", reason: "the organisation has a token with this name; revoke it first")) {
                try await tokens.create(organisationID: harness.organisationID, name: "Medlemsregister")
            }
            await #expect(throws: DirectoryError.self) { try await tokens.create(organisationID: harness.organisationID, name: "a\nb") }
            #expect(try await tokens.revoke(organisationID: harness.organisationID, name: "Medlemsregister"))
            #expect(try await tokens.verify(token) == nil)
            #expect(try await tokens.revoke(organisationID: harness.organisationID, name: "Medlemsregister") == false)
            #expect(try await tokens.list(organisationID: harness.organisationID).map { $0.revoked } == [true])
            let trail = try await harness.auditText()
            #expect(trail.contains("scim_token.created") && trail.contains("scim_token.revoked") && !trail.contains(token))
        }
    }
}
