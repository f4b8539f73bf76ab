import Foundation
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import SQLKit
import Testing

/// Issue 44 item 6: throttle rows keyed by plain SHA-256 cannot be rekeyed, so version 25 drops them.
@Suite("Throttle key migration")
struct ThrottleKeyMigrationTests {
    @Test("Issue 44 item 6: version 25 drops the throttle rows stored before the keys were keyed; the throttles start empty", arguments: TestDatabase.kinds)
    func dropsOldRows(kind: DatabaseKind) async throws {
        try await TestDatabase.withEmptyDatabase(kind) { open in
            let driver = try await open()
            try await driver.whileRunning {
                try await Migrator(driver: driver, migrations: Migration.all.filter { $0.version < 25 }, logger: TestDatabase.logger).migrate()
                let store = PortvaktStore(driver: driver, auditKeys: TestDatabase.auditKeys)
                let now = Date()
                let oldKey = "sha-256 of address:203.0.113.9"
                try await store.recordThrottleFailures([ThrottleFailure(key: oldKey, forgetAfter: 3600) { _ in 60 }], now: now)
                #expect(try await store.throttleBlockedUntil(keys: [oldKey], now: now) != nil)

                let applied = try await Migrator(driver: driver, logger: TestDatabase.logger).migrate()
                #expect(applied.first == 25)
                #expect(try await store.throttleBlockedUntil(keys: [oldKey], now: now) == nil)
                let rows = try await driver.withSession { db in try await db.select().column("key").from("login_throttles").all().count }
                #expect(rows == 0)
            }
        }
    }
}
