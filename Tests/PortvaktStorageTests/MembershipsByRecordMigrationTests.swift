import Foundation
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import SQLKit
import Testing

/// Issue 58 item 5: version 33 keys memberships by record. Rows made before keep their roles; a
/// record two accounts held (the old key did not stop it) stays with the account verified with
/// its number.
@Suite("Memberships by record migration")
struct MembershipsByRecordMigrationTests {
    @Test("Issue 58 item 5: version 33 keeps every membership, gives a record held twice to the account with its number, and then lets one account hold two records of one role", arguments: TestDatabase.kinds)
    func keepsMemberships(kind: DatabaseKind) async throws {
        try await TestDatabase.withEmptyDatabase(kind) { open in
            let driver = try await open()
            try await driver.whileRunning {
                try await Migrator(driver: driver, migrations: Migration.all.filter { $0.version < 33 }, logger: TestDatabase.logger).migrate()
                let store = PortvaktStore(driver: driver, auditKeys: TestDatabase.auditKeys)
                let nhf = try await store.createOrganisation(slug: "nhf", name: "NHF")
                let record = try await store.createMemberRecord(organisationID: nhf.id, NewMemberRecord(fullName: "Kari Nordmann", role: .peerMentor))
                let other = try await store.createMemberRecord(organisationID: nhf.id, NewMemberRecord(fullName: "Kari N.", role: .peerMentor))
                let unverified = try await store.createUser(displayName: "Password account")
                let verified = try await store.createUser(displayName: "Kari")
                try await driver.withSession { db in
                    for (table, id) in [("member_records", record.id), ("users", verified.id)] {
                        try await db.update(table).set("personnummer_sealed", to: Data([1])).set("personnummer_key_id", to: "k1")
                            .set("personnummer_index", to: "index-of-kari").where("id", .equal, id).run()
                    }
                }
                // Under the old key: the unverified account took the record first, the verified one too.
                _ = try await store.addMembership(userID: unverified.id, organisationID: nhf.id, role: .peerMentor, memberRecordID: record.id, now: Date(timeIntervalSince1970: 1))
                _ = try await store.addMembership(userID: verified.id, organisationID: nhf.id, role: .peerMentor, memberRecordID: record.id, now: Date(timeIntervalSince1970: 2))
                _ = try await store.addMembership(userID: unverified.id, organisationID: nhf.id, role: .coordinator, memberRecordID: nil)

                #expect(try await Migrator(driver: driver, logger: TestDatabase.logger).migrate().first == 33)
                #expect(try await store.memberships(userID: verified.id).compactMap(\.memberRecordId) == [record.id])
                let kept = try await store.memberships(userID: unverified.id)
                #expect(kept.map(\.role) == [.coordinator] && kept.first?.memberRecordId == nil, "its role without a record stays")
                // Now one account holds two records of one role, and a record only one account.
                _ = try await store.addMembership(userID: verified.id, organisationID: nhf.id, role: .peerMentor, memberRecordID: other.id)
                #expect(Set(try await store.memberships(userID: verified.id).compactMap(\.memberRecordId)) == [record.id, other.id])
                await #expect(throws: StoreError.self) {
                    _ = try await store.addMembership(userID: unverified.id, organisationID: nhf.id, role: .peerMentor, memberRecordID: other.id)
                }
                await #expect(throws: StoreError.self, "a role without a record, once") {
                    _ = try await store.addMembership(userID: unverified.id, organisationID: nhf.id, role: .coordinator, memberRecordID: nil)
                }
            }
        }
    }
}
