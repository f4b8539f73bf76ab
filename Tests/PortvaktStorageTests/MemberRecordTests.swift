import Foundation
import PortvaktCore
import PortvaktStorage
import Personnummer
import PortvaktModels
import PortvaktTestSupport
import Testing

@Suite("Organisations and member records")
struct MemberRecordTests {
    @Test("Organisation slugs are unique", arguments: TestDatabase.kinds)
    func organisationSlug(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            _ = try await store.createOrganisation(slug: "nhf", name: "Norges Handikapforbund")
            await #expect(throws: StoreError.duplicate(nil)) { try await store.createOrganisation(slug: "nhf", name: "Copy") }
            #expect(try await store.organisation(slug: "nhf")?.name == "Norges Handikapforbund")
            #expect(try await store.organisations().map(\.slug) == ["nhf"])
        }
    }

    @Test("A personnummer is unique within an organisation and may recur across organisations", arguments: TestDatabase.kinds)
    func personnummerPerOrganisation(kind: DatabaseKind) async throws {
        let vault = try StorageTestKeys.vault()
        let number = try Personnummer("15058600048")
        try await TestDatabase.withStore(kind) { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let hlf = try await store.createOrganisation(slug: "hlf", name: "HLF")
            let seal = { (id: String) in try vault.protect(number, record: "member:\(id)") }
            let first = try await store.createMemberRecord(organisationID: nhf.id, NewMemberRecord(fullName: "Ada", phone: "+4790000001"), personnummer: seal)
            await #expect(throws: StoreError.duplicate(nil)) {
                try await store.createMemberRecord(organisationID: nhf.id, NewMemberRecord(fullName: "Ada again"), personnummer: seal)
            }
            let second = try await store.createMemberRecord(organisationID: hlf.id, NewMemberRecord(fullName: "Ada"), personnummer: seal)
            let found = try await store.memberRecords(personnummerIndex: vault.blindIndex(number))
            #expect(Set(found.map(\.id)) == [first.id, second.id])
            let opened = try vault.open(try #require(found.first { $0.id == first.id }?.personnummer).sealed, record: "member:\(first.id)")
            #expect(opened == number)
            #expect(try await store.memberRecords(phone: "+4790000001").map(\.id) == [first.id])
        }
    }

    @Test("Members without a personnummer or external reference do not collide", arguments: TestDatabase.kinds)
    func nullsDoNotCollide(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            _ = try await store.createMemberRecord(organisationID: nhf.id, NewMemberRecord(fullName: "A"))
            _ = try await store.createMemberRecord(organisationID: nhf.id, NewMemberRecord(fullName: "B"))
            _ = try await store.createMemberRecord(organisationID: nhf.id, NewMemberRecord(externalRef: "M-1", fullName: "C"))
            await #expect(throws: StoreError.duplicate(nil)) {
                try await store.createMemberRecord(organisationID: nhf.id, NewMemberRecord(externalRef: "M-1", fullName: "D"))
            }
        }
    }

    @Test("The database holds no personnummer digits, only ciphertext and index", arguments: TestDatabase.kinds)
    func noPlaintextAtRest(kind: DatabaseKind) async throws {
        let vault = try StorageTestKeys.vault()
        let number = try Personnummer("15058600048")
        try await TestDatabase.withStore(kind) { store in
            let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let seal = { (id: String) in try vault.protect(number, record: "member:\(id)") }
            let record = try await store.createMemberRecord(organisationID: nhf.id, NewMemberRecord(fullName: "Ada"), personnummer: seal)
            let raw = try await store.driver.withSession { db in
                try await db.select().column("*").from("member_records").where("id", .equal, record.id).first()
            }
            let row = try #require(raw)
            for column in row.allColumns {
                let text = (try? row.decode(column: column, as: String.self)) ?? (try? row.decode(column: column, as: Data.self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
                #expect(!text.contains("15058600048"), "column \(column)")
            }
        }
    }
}
