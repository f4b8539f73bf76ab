import Foundation
import PortvaktModels
import PortvaktStorage
import SQLKit
import PortvaktTestSupport
import Testing

@Suite("Migrations")
struct MigrationTests {
    @Test("Migrating applies every version once; a second run applies nothing", arguments: TestDatabase.kinds)
    func appliesOnce(kind: DatabaseKind) async throws {
        try await TestDatabase.withEmptyDatabase(kind) { open in
            let driver = try await open()
            try await driver.whileRunning {
                let migrator = Migrator(driver: driver, logger: TestDatabase.logger)
                let first = try await migrator.migrate()
                let second = try await migrator.migrate()
                let recorded = try await migrator.appliedVersions()
                #expect(first == Migration.all.map(\.version))
                #expect(second == [])
                #expect(recorded == Migration.all.map(\.version))
            }
        }
    }

    @Test("Two instances migrating at once: one applies, the other waits and finds it done", arguments: TestDatabase.kinds)
    func concurrentInstances(kind: DatabaseKind) async throws {
        try await TestDatabase.withEmptyDatabase(kind) { open in
            let first = try await open()
            let second = try await open()
            try await first.whileRunning {
                try await second.whileRunning {
                    async let a = Migrator(driver: first, logger: TestDatabase.logger).migrate()
                    async let b = Migrator(driver: second, logger: TestDatabase.logger).migrate()
                    let results = try await [a, b]
                    #expect(results.filter(\.isEmpty).count == 1)
                    #expect(results.flatMap { $0 } == Migration.all.map(\.version))
                    #expect(try await Migrator(driver: first, logger: TestDatabase.logger).appliedVersions() == Migration.all.map(\.version))
                }
            }
        }
    }

    @Test("A database migrated by a newer Portvakt is refused, not downgraded", arguments: TestDatabase.kinds)
    func newerSchemaIsRefused(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            try await store.driver.withSession { db in
                try await db.raw("INSERT INTO portvakt_migrations (version, name, applied_at) VALUES (999, 'future', 0)").run()
            }
            await #expect(throws: StoreError.schemaTooNew("999")) {
                try await Migrator(driver: store.driver, logger: TestDatabase.logger).migrate()
            }
        }
    }
}

@Suite("Sealed columns")
struct SealedColumnTests {
    @Test("Issue 46 item 5: every *_sealed column of the schema is one rotate-encryption-key re-seals, with its *_key_id beside it", arguments: TestDatabase.kinds)
    func everySealedColumnIsListed(kind: DatabaseKind) async throws {
        try await TestDatabase.withEmptyDatabase(kind) { open in
            let driver = try await open()
            try await driver.whileRunning {
                _ = try await Migrator(driver: driver, logger: TestDatabase.logger).migrate()
                let query: SQLQueryString = kind == .sqlite
                    ? "SELECT m.name AS t, p.name AS c FROM sqlite_master m JOIN pragma_table_info(m.name) p WHERE m.type = 'table'"
                    : "SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = current_schema()"
                let rows = try await driver.withSession { db in try await db.raw(query).all() }
                let columns = Set(try rows.map { "\(try $0.decode(column: "t", as: String.self)).\(try $0.decode(column: "c", as: String.self))" })
                let sealed = columns.filter { $0.hasSuffix("_sealed") }
                #expect(!sealed.isEmpty)
                for column in sealed { #expect(columns.contains(column.dropLast("_sealed".count) + "_key_id"), "\(column) has its key id") }
                #expect(sealed == Set(SealedColumn.all.map(\.name)), "schema: \(sealed.sorted()), listed: \(SealedColumn.all.map(\.name).sorted())")
            }
        }
    }
}
