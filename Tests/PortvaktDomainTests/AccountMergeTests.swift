import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import Testing

@Suite("Merging two accounts, on an in-memory store")
struct AccountMergeTests {
    let store = InMemoryStore()
    let merge: AccountMerge
    let nhfMember = [OrganisationRoles(organisationID: "org-nhf", slug: "nhf", roles: [.peerMentor])]

    init() async throws {
        merge = AccountMerge(store: store, vault: try Fixtures().keys.vault, now: { Fixtures.now })
        for id in ["kari", "kari2", "ola"] {
            await store.put(User(id: id, displayName: id, createdAt: Fixtures.now))
            await store.setRoles(id, nhfMember)
        }
        await store.setRoles("ola", nhfMember + [OrganisationRoles(organisationID: "org-hlf", slug: "hlf", roles: [.peerMentor])])
    }

    @Test("The policy first (an administrator of that organisation, a fresh BankID or Vipps login), then the accounts")
    func policyFirst() async throws {
        await #expect(throws: DomainError.stepUpRequired(.accountsMerge)) {
            try await merge.mergeAsAdministrator(keep: "kari", remove: "kari", in: Fixtures.nhf, by: Fixtures.actor("ingrid", .password))
        }
        await #expect(throws: DomainError.notAllowed) {
            try await merge.mergeAsAdministrator(keep: "kari", remove: "kari2", in: Fixtures.nhf, by: Fixtures.actor("hanne", .bankID, roles: [Fixtures.hlf]))
        }
        #expect(await store.merges.isEmpty)
        try await merge.mergeAsAdministrator(keep: "kari", remove: "kari2", in: Fixtures.nhf, by: Fixtures.actor("ingrid", .bankID))
        #expect(await store.merges.map(\.keep) == ["kari"])
        let audit = try #require(await store.audit.last)
        #expect(audit.action == "user.merged" && audit.details["removed"] == "kari2")
    }

    @Test("A merge never widens anyone's access: not the same account, not one's own, not an account of another organisation")
    func refusals() async throws {
        let ingrid = Fixtures.actor("ingrid", .bankID)
        await store.put(User(id: "ingrid", displayName: "Ingrid", createdAt: Fixtures.now))
        await store.setRoles("ingrid", [Fixtures.nhf])
        for (keep, remove, refusal) in [
            ("kari", "kari", DomainError.mergeSameAccount), ("ingrid", "kari", .mergeOwnAccount),
            ("kari", "ola", .mergeOtherOrganisation), ("kari", "nobody", .mergeNotMembers),
        ] {
            await #expect(throws: refusal) { try await merge.mergeAsAdministrator(keep: keep, remove: remove, in: Fixtures.nhf, by: ingrid) }
        }
        #expect(await store.merges.isEmpty)
    }

    @Test("Issue 45 item 5: a disabled account is never merged, either way round: its provider accounts, phones and passkeys would open the other")
    func disabledAccountsAreNotMerged() async throws {
        await store.put(User(id: "kari2", displayName: "kari2", createdAt: Fixtures.now, disabledAt: Fixtures.now))
        for (keep, remove) in [("kari", "kari2"), ("kari2", "kari")] {
            await #expect(throws: DomainError.mergeAccountDisabled) {
                try await merge.mergeAsAdministrator(keep: keep, remove: remove, in: Fixtures.nhf, by: Fixtures.actor("ingrid", .bankID))
            }
            await #expect(throws: DomainError.mergeAccountDisabled) { try await merge.merge(keep: keep, remove: remove, by: nil, source: "cli") }
        }
        #expect(await store.merges.isEmpty)
    }

    @Test("The store's refusals come back as the domain's: data under the same key, an account gone")
    func storeRefusals() async throws {
        await store.failMerges(with: .duplicate("devices"))
        await #expect(throws: DomainError.mergeDuplicateData) {
            try await merge.mergeAsAdministrator(keep: "kari", remove: "kari2", in: Fixtures.nhf, by: Fixtures.actor("ingrid", .bankID))
        }
    }
}
