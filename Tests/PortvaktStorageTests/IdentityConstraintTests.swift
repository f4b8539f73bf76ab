import Foundation
import PortvaktCore
import PortvaktStorage
import Personnummer
import PortvaktModels
import PortvaktTestSupport
import Testing

@Suite("Users, identities and memberships")
struct IdentityConstraintTests {
    @Test("One user per (provider, subject): a second link fails loudly", arguments: TestDatabase.kinds)
    func identityIsUnique(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let ada = try await store.createUser(displayName: "Ada")
            let eve = try await store.createUser(displayName: "Eve")
            _ = try await store.linkIdentity(userID: ada.id, provider: .vipps, subject: "sub-1")
            await #expect(throws: StoreError.duplicate(nil)) {
                try await store.linkIdentity(userID: eve.id, provider: .vipps, subject: "sub-1")
            }
            // The same subject at another provider is another identity.
            _ = try await store.linkIdentity(userID: eve.id, provider: .bankid, subject: "sub-1")
            #expect(try await store.user(provider: .vipps, subject: "sub-1")?.id == ada.id)
            #expect(try await store.user(provider: .bankid, subject: "sub-1")?.id == eve.id)
            #expect(try await store.user(provider: .password, subject: "sub-1") == nil)
        }
    }

    @Test("Concurrent links of one identity: exactly one wins", arguments: TestDatabase.kinds)
    func identityRace(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            var users: [User] = []
            for index in 0..<8 { users.append(try await store.createUser(displayName: "User \(index)")) }
            let outcomes = await withTaskGroup(of: Result<Identity, any Error>.self) { group in
                for user in users {
                    group.addTask { await Result(awaiting: { try await store.linkIdentity(userID: user.id, provider: .bankid, subject: "race") }) }
                }
                return await group.reduce(into: [Result<Identity, any Error>]()) { $0.append($1) }
            }
            #expect(outcomes.filter { (try? $0.get()) != nil }.count == 1)
            let losers = outcomes.compactMap { outcome -> (any Error)? in if case .failure(let error) = outcome { error } else { nil } }
            #expect(losers.count == 7 && losers.allSatisfy { ($0 as? StoreError) == .duplicate(nil) }, "each loser meets the unique constraint: \(losers)")
        }
    }

    @Test("One user per personnummer (blind index), and the sealed value opens again", arguments: TestDatabase.kinds)
    func personnummerIsUniqueAmongUsers(kind: DatabaseKind) async throws {
        let vault = try StorageTestKeys.vault()
        let number = try Personnummer("15058600048")
        try await TestDatabase.withStore(kind) { store in
            let seal = { (id: String) in try vault.protect(number, record: "user:\(id)") }
            let user = try await store.createUser(displayName: "Ada", personnummer: seal)
            await #expect(throws: StoreError.duplicate(nil)) {
                try await store.createUser(displayName: "Copy", personnummer: seal)
            }
            let found = try #require(try await store.user(personnummerIndex: vault.blindIndex(number)))
            #expect(found.id == user.id)
            let protected = try #require(found.personnummer)
            #expect(try vault.open(protected.sealed, record: "user:\(user.id)") == number)
        }
    }

    @Test("Email is unique, case-insensitively", arguments: TestDatabase.kinds)
    func emailIsUnique(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            _ = try await store.createUser(displayName: "Ada", email: "ada@example.no")
            await #expect(throws: StoreError.duplicate(nil)) { try await store.createUser(displayName: "Ada 2", email: "ADA@example.no") }
            #expect(try await store.user(email: "Ada@Example.no")?.displayName == "Ada")
        }
    }

    @Test("Memberships carry one of the three roles; others and missing users are refused", arguments: TestDatabase.kinds)
    func memberships(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let organisation = try await store.createOrganisation(slug: "hlf", name: "HLF")
            let user = try await store.createUser(displayName: "Ada")
            for role in Role.allCases {
                _ = try await store.addMembership(userID: user.id, organisationID: organisation.id, role: role, memberRecordID: nil)
            }
            #expect(Set(try await store.memberships(userID: user.id).map(\.role)) == Set(Role.allCases))
            await #expect(throws: StoreError.duplicate(nil)) {
                try await store.addMembership(userID: user.id, organisationID: organisation.id, role: .coordinator, memberRecordID: nil)
            }
            await #expect(throws: StoreError.constraint(nil)) {
                try await store.driver.withSession { db in
                    try await db.raw("INSERT INTO memberships (user_id, organisation_id, role, created_at) VALUES (\(bind: user.id), \(bind: organisation.id), 'superuser', 0)").run()
                }
            }
            await #expect(throws: StoreError.missingReference(nil)) {
                try await store.addMembership(userID: "no-such-user", organisationID: organisation.id, role: .peerMentor, memberRecordID: nil)
            }
            await #expect(throws: StoreError.missingReference(nil)) {
                try await store.linkIdentity(userID: "no-such-user", provider: .vipps, subject: "x")
            }
        }
    }
}
