import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import Testing

@Suite("The administrators' review of the member-sync log, on an in-memory store")
struct ConflictReviewTests {
    let fixtures: Fixtures
    let store = InMemoryStore()
    let review: ConflictReview
    let entry: MemberSyncEntry

    init() async throws {
        fixtures = try Fixtures()
        let keys = fixtures.keys
        let planner = MemberSyncPlanner(store: store, vault: keys.vault, cipher: keys.cipher) { slug in slug == "nhf" }
        review = ConflictReview(store: store, vault: keys.vault, planner: planner, now: { Fixtures.now })
        await store.put(Organisation(id: "org-nhf", slug: "nhf", name: "NHF", createdAt: Fixtures.now))
        await store.put(MemberRecord(
            id: "rec-kari", organisationID: "org-nhf", fullName: "Kari Nordmann",
            personnummer: try fixtures.protect("15058600048", record: MemberRecord.personnummerContext(recordID: "rec-kari")), createdAt: Fixtures.now
        ))
        let entryID = "entry-1"
        entry = MemberSyncEntry(
            id: entryID, occurredAt: Fixtures.now, organisationID: "org-nhf", memberRecordID: "rec-kari", userID: "kari", source: "bankid-login",
            outcome: .conflict, loginPersonnummer: try keys.vault.seal(try .init("15058601508"), record: MemberSyncEntry.vaultRecord(entryID: entryID))
        )
        await store.put(entry)
    }

    @Test("The entry is masked; the full numbers need a fresh BankID or Vipps login and are audited once with the surface")
    func revealNeedsStepUp() async throws {
        let masked = try await review.masked(entry)
        #expect(masked.memberNumber == "150586*****" && masked.loginNumber == "150586*****" && !masked.full)
        await #expect(throws: DomainError.stepUpRequired(.personnummerReveal)) {
            try await review.reveal(entry, in: Fixtures.nhf, by: Fixtures.actor("ingrid", .password), source: "api")
        }
        #expect(await store.audit.isEmpty, "a refused reveal is not recorded as seen")
        let full = try await review.reveal(entry, in: Fixtures.nhf, by: Fixtures.actor("ingrid", .bankID), source: "portal")
        #expect(full.memberNumber == "15058600048" && full.loginNumber == "15058601508")
        let audit = await store.audit
        #expect(audit.count == 1 && audit.first?.action == "member.personnummer.viewed" && audit.first?.source == "portal")
    }

    @Test("Another organisation's entry reads as unknown; a coordinator may not read the log")
    func entryBounds() async throws {
        await #expect(throws: DomainError.notFound("sync entry")) {
            try await review.entry("entry-1", in: Fixtures.hlf, by: Fixtures.actor("hanne", .bankID, roles: [Fixtures.hlf]))
        }
        await #expect(throws: DomainError.notFound("sync entry")) {
            try await review.entry(String(repeating: "x", count: 65), in: Fixtures.nhf, by: Fixtures.actor("ingrid", .bankID))
        }
        let hanne = Fixtures.actor("hanne", .bankID, roles: [Fixtures.hlf])
        await #expect(throws: DomainError.notFound("sync entry")) { try await review.reveal(entry, in: Fixtures.hlf, by: hanne, source: "api") }
        #expect(await store.audit.isEmpty)
        let coordinator = Fixtures.actor("per", .bankID, roles: [OrganisationRoles(organisationID: "org-nhf", slug: "nhf", roles: [.coordinator])])
        await #expect(throws: DomainError.notAllowed) { try await review.entry("entry-1", in: Fixtures.nhf, by: coordinator) }
        #expect(try await review.entry("entry-1", in: Fixtures.nhf, by: Fixtures.actor("ingrid", .password)).id == "entry-1")
    }

    @Test("Taking the login's number writes it to the record and the member system's outbox, audited; the policy before the choice")
    func takeLogin() async throws {
        await #expect(throws: DomainError.stepUpRequired(.conflictResolve)) {
            try await review.resolve(entry, keep: "neither", in: Fixtures.nhf, by: Fixtures.actor("ingrid", .password))
        }
        await #expect(throws: DomainError.invalidInput("keep must be member or login.")) {
            try await review.resolve(entry, keep: "neither", in: Fixtures.nhf, by: Fixtures.actor("ingrid", .bankID))
        }
        _ = try await review.resolve(entry, keep: "login", in: Fixtures.nhf, by: Fixtures.actor("ingrid", .bankID))
        let resolved = try #require(await store.resolutions["entry-1"])
        #expect(resolved.resolution == "took_login")
        #expect(resolved.writes.personnummerUpdates.map(\.recordID) == ["rec-kari"])
        #expect(resolved.writes.outbox.count == 1 && resolved.writes.outbox.first?.event == MemberUpdate.personnummerSet)
        #expect(resolved.writes.audit.map(\.action) == ["member.personnummer.conflict_resolved"])
        await #expect(throws: DomainError.conflictNotOpen) {
            try await review.resolve(entry, keep: "member", in: Fixtures.nhf, by: Fixtures.actor("ingrid", .bankID))
        }
    }

    @Test("Review III item 1: the login's number is never taken into a record whose account has another person's number; nothing is written")
    func heldByAnotherPerson() async throws {
        let holder = User(
            id: "kari", displayName: "Kari Nordmann",
            personnummer: try fixtures.protect("15058600048", record: "user:kari"), createdAt: Fixtures.now
        )
        await store.put(holder)
        let record = try #require(await store.records["rec-kari"])
        await store.put(record, heldBy: "kari")
        await #expect(throws: DomainError.heldByAnotherPerson) {
            try await review.resolve(entry, keep: "login", in: Fixtures.nhf, by: Fixtures.actor("ingrid", .bankID))
        }
        #expect(await store.resolutions.isEmpty)
        _ = try await review.resolve(entry, keep: "member", in: Fixtures.nhf, by: Fixtures.actor("ingrid", .bankID))
        #expect(await store.resolutions["entry-1"]?.resolution == "kept_member")
    }

    @Test("Another record of the organisation with the login's number: merge them first")
    func numberHeldElsewhere() async throws {
        await store.put(MemberRecord(
            id: "rec-other", organisationID: "org-nhf", fullName: "Ola Nordmann",
            personnummer: try fixtures.protect("15058601508", record: MemberRecord.personnummerContext(recordID: "rec-other")), createdAt: Fixtures.now
        ))
        await #expect(throws: DomainError.numberHeldElsewhere) {
            try await review.resolve(entry, keep: "login", in: Fixtures.nhf, by: Fixtures.actor("ingrid", .bankID))
        }
        #expect(await store.resolutions.isEmpty)
    }

    @Test("Issue 45 item 2: a record whose membership ended still holds its number (the organisation's unique index counts it), so the login's number is not taken")
    func numberHeldByAnEndedRecord() async throws {
        let values = MemberRecordValues(
            externalRef: "nhf-old", userName: "nhf-old", givenName: "Ola", familyName: "Nordmann", fullName: "Ola Nordmann", email: nil, phone: nil,
            role: .peerMentor, memberNumber: nil, active: false
        )
        let ended = MemberRecord(
            id: "rec-ended", organisationID: "org-nhf", values: values,
            personnummer: try fixtures.protect("15058601508", record: MemberRecord.personnummerContext(recordID: "rec-ended")), now: Fixtures.now
        )
        #expect(!ended.isActive)
        await store.put(ended)
        await #expect(throws: DomainError.numberHeldElsewhere) {
            try await review.resolve(entry, keep: "login", in: Fixtures.nhf, by: Fixtures.actor("ingrid", .bankID))
        }
        #expect(await store.resolutions.isEmpty)
    }
}
