import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import Testing

@Suite("The app's data: activities, expense claims and contacts, on an in-memory store")
struct AppDataTests {
    let store = InMemoryAppData()
    let now: @Sendable () -> Date = { Fixtures.now }
    static let nhfMentor = [OrganisationRoles(organisationID: "org-nhf", slug: "nhf", roles: [.peerMentor])]
    static let nhfCoordinator = [OrganisationRoles(organisationID: "org-nhf", slug: "nhf", roles: [.coordinator])]

    @Test("S12.1: an activity is logged once per key; a replay gets the first row; another body under the same key is refused")
    func activityOncePerKey() async throws {
        let log = ActivityLog(store: store, now: now)
        let kari = Fixtures.actor("kari", .deviceKey, roles: Self.nhfMentor)
        let entry = ActivityLog.Entry(organisation: "nhf", kind: "visit", occurredAt: "2026-11-21T09:30:00Z", durationMinutes: 45, note: nil, contactID: nil)
        let key = WriteKey(value: "k1", requestHash: Data([1]))
        guard case .created(let first) = try await log.log(entry, key: key, by: kari) else { Issue.record("not created"); return }
        guard case .replayed(let again) = try await log.log(entry, key: key, by: kari) else { Issue.record("not replayed"); return }
        #expect(again.row.id == first.row.id && again.organisation == "nhf")
        guard case .keyReused = try await log.log(entry, key: WriteKey(value: "k1", requestHash: Data([2])), by: kari) else { Issue.record("key reuse accepted"); return }
        #expect(store.activityRows.count == 1)
    }

    @Test("S12.2: an activity is refused outside the member's organisations, with bad fields, or about a contact they may not see")
    func activityRefusals() async throws {
        let log = ActivityLog(store: store, now: now)
        let kari = Fixtures.actor("kari", .deviceKey, roles: Self.nhfMentor)
        let key = WriteKey(value: "k", requestHash: Data())
        let good = ActivityLog.Entry(organisation: "nhf", kind: "visit", occurredAt: "2026-11-21T09:30:00Z", durationMinutes: 45, note: nil, contactID: nil)
        var elsewhere = good
        elsewhere.organisation = "hlf"
        await #expect(throws: DomainError.notAllowed) { try await log.log(elsewhere, key: key, by: kari) }
        var badTime = good
        badTime.occurredAt = "yesterday"
        await #expect(throws: DomainError.self) { try await log.log(badTime, key: key, by: kari) }
        var tooLong = good
        tooLong.durationMinutes = 1441
        await #expect(throws: DomainError.self) { try await log.log(tooLong, key: key, by: kari) }
        store.put(Contact(
            id: "ola-contact", organisationID: "org-nhf", assignedUserID: "ola", displayName: "Per", details: SealedValue(keyID: "k", combined: Data()),
            createdBy: nil, createdAt: Fixtures.now
        ))
        var othersContact = good
        othersContact.contactID = "ola-contact"
        await #expect(throws: DomainError.notFound("contact")) { try await log.log(othersContact, key: key, by: kari) }
        #expect(store.activityRows.isEmpty)
    }

    @Test("S12.1: a peer mentor lists their own rows, a coordinator the organisation's, nobody another organisation's")
    func visibility() async throws {
        let log = ActivityLog(store: store, now: now)
        let entry = ActivityLog.Entry(organisation: "nhf", kind: "call", occurredAt: "2026-11-21T09:30:00Z", durationMinutes: 10, note: nil, contactID: nil)
        for user in ["kari", "ola"] {
            _ = try await log.log(entry, key: WriteKey(value: user, requestHash: Data()), by: Fixtures.actor(user, .deviceKey, roles: Self.nhfMentor))
        }
        #expect(try await log.list(in: nil, by: Fixtures.actor("kari", .deviceKey, roles: Self.nhfMentor)).map(\.row.userId) == ["kari"])
        #expect(try await log.list(in: "nhf", by: Fixtures.actor("per", .password, roles: Self.nhfCoordinator)).count == 2)
        await #expect(throws: DomainError.notAllowed) { try await log.list(in: "hlf", by: Fixtures.actor("kari", .deviceKey, roles: Self.nhfMentor)) }
    }

    @Test("S11.2: an expense claim needs the device-key step-up for expenses.submit, and is audited once")
    func expenseStepUp() async throws {
        let claims = ExpenseClaims(store: store, now: now)
        let key = WriteKey(value: "e1", requestHash: Data([1]))
        await #expect(throws: DomainError.stepUpRequired(.expensesSubmit)) {
            try await claims.submit(organisation: "nhf", amountOre: 12_500, description: "Bus", key: key, by: Fixtures.actor("kari", .bankID, roles: Self.nhfMentor))
        }
        let steppedUp = Fixtures.actor("kari", .deviceKey, roles: Self.nhfMentor, stepUp: "expenses.submit")
        await #expect(throws: DomainError.self) { try await claims.submit(organisation: "nhf", amountOre: 0, description: "Bus", key: key, by: steppedUp) }
        _ = try await claims.submit(organisation: "nhf", amountOre: 12_500, description: "Bus", key: key, by: steppedUp)
        _ = try await claims.submit(organisation: "nhf", amountOre: 12_500, description: "Bus", key: key, by: steppedUp)
        #expect(store.claims.count == 1)
        #expect(store.audit.map(\.action) == ["expense.submitted"])
    }

    @Test("S11.1: contact details open only behind the step-up for contacts.read, to someone who may see the row, audited; only coordinators add contacts")
    func contacts() async throws {
        let book = ContactBook(store: store, cipher: try Fixtures().keys.cipher, now: now)
        store.setRoles("kari", Self.nhfMentor)
        let coordinator = Fixtures.actor("per", .password, roles: Self.nhfCoordinator)
        let details = ContactBook.Details(phone: "+47 900 00 000", address: "Storgata 1", note: nil)
        await #expect(throws: DomainError.notAllowed) {
            try await book.add(organisation: "nhf", displayName: "Per", assignedTo: nil, details: details, by: Fixtures.actor("kari", .bankID, roles: Self.nhfMentor))
        }
        await #expect(throws: DomainError.self) {
            try await book.add(organisation: "nhf", displayName: "Per", assignedTo: "stranger", details: details, by: coordinator)
        }
        let added = try await book.add(organisation: "nhf", displayName: " Per Hansen ", assignedTo: "kari", details: details, by: coordinator)
        #expect(added.row.displayName == "Per Hansen")
        await #expect(throws: DomainError.stepUpRequired(.contactsRead)) {
            try await book.open(added.row.id, by: Fixtures.actor("kari", .bankID, roles: Self.nhfMentor))
        }
        let opened = try await book.open(added.row.id, by: Fixtures.actor("kari", .deviceKey, roles: Self.nhfMentor, stepUp: "contacts.read"))
        #expect(opened.details == details)
        await #expect(throws: DomainError.notFound("contact")) {
            try await book.open(added.row.id, by: Fixtures.actor("ola", .deviceKey, roles: Self.nhfMentor, stepUp: "contacts.read"))
        }
        #expect(store.audit.map(\.action) == ["contact.details_read"])
    }
}
