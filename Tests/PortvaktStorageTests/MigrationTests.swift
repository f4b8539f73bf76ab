import Foundation
import PortvaktModels
@testable import PortvaktStorage
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

/// Rolling upgrades (issue 60 item 5): the next release's migrations only add, so this release
/// keeps serving on its schema; a contract step (`contracts`) makes it stop instead.
@Suite("Rolling upgrades")
struct RollingUpgradeTests {
    static func expand(_ offset: Int) -> Migration {
        let version = Migration.all.last!.version + offset
        return Migration(version: version, name: "the next release's expand \(offset)", apply: { db in
            try await db.raw("CREATE TABLE next_release_\(unsafeRaw: String(offset)) (id BIGINT PRIMARY KEY)").run()
        }, kind: .expand)
    }

    @Test("Issue 60 review: a next release of two expand migrations leaves this release running (an expand step allows what the step before it allows); a contract step after them stops this release and the one of the two expands alike", arguments: TestDatabase.kinds)
    func severalExpandSteps(kind: DatabaseKind) async throws {
        try await TestDatabase.withEmptyDatabase(kind) { open in
            let driver = try await open()
            try await driver.whileRunning {
                let this = Migrator(driver: driver, logger: TestDatabase.logger)
                _ = try await this.migrate()
                let newest = Migration.all.last!.version
                let expands = Migrator(driver: driver, migrations: Migration.all + [Self.expand(1), Self.expand(2)], logger: TestDatabase.logger)
                #expect(try await expands.migrate() == [newest + 1, newest + 2])
                #expect(try await this.migrate() == [], "this release serves beside both")
                #expect(try await this.pendingVersions() == [])
                let contract = Migration(version: newest + 3, name: "the release after's contract", apply: { db in
                    try await db.raw("DROP TABLE next_release_1").run()
                }, kind: .contract)
                let after = Migrator(driver: driver, migrations: Migration.all + [Self.expand(1), Self.expand(2), contract], logger: TestDatabase.logger)
                #expect(try await after.migrate() == [newest + 3])
                await #expect(throws: StoreError.schemaTooNew(String(newest + 3))) { try await this.pendingVersions() }
                await #expect(throws: StoreError.schemaTooNew(String(newest + 3))) { try await expands.pendingVersions() }
            }
        }
    }

    static func next(contracts: Bool) -> Migration {
        let version = Migration.all.last!.version + 1
        return Migration(version: version, name: "the next release's", apply: { db in
            try await db.raw(contracts ? "DROP TABLE consents" : "CREATE TABLE next_release_notes (id BIGINT PRIMARY KEY)").run()
        }, kind: contracts ? .contract : .expand)
    }

    @Test("After the next release's expand migration this release still migrates (nothing to do) and its commands find the schema current; after a contract step both refuse", arguments: TestDatabase.kinds)
    func previousReleaseBesideTheNext(kind: DatabaseKind) async throws {
        for contracts in [false, true] {
            try await TestDatabase.withEmptyDatabase(kind) { open in
                let driver = try await open()
                try await driver.whileRunning {
                    let this = Migrator(driver: driver, logger: TestDatabase.logger)
                    #expect(try await this.pendingVersions() == Migration.all.map(\.version), "an empty database lacks every migration, and asking creates nothing")
                    #expect(try await this.pendingVersions().count == Migration.all.count)
                    _ = try await this.migrate()
                    let next = Migrator(driver: driver, migrations: Migration.all + [Self.next(contracts: contracts)], logger: TestDatabase.logger)
                    #expect(try await next.migrate() == [Migration.all.last!.version + 1])
                    if contracts {
                        await #expect(throws: StoreError.schemaTooNew(String(Migration.all.last!.version + 1))) { try await this.migrate() }
                        await #expect(throws: StoreError.schemaTooNew(String(Migration.all.last!.version + 1))) { try await this.pendingVersions() }
                    } else {
                        #expect(try await this.migrate() == [])
                        #expect(try await this.pendingVersions() == [])
                    }
                }
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
