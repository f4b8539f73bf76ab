import Foundation
import PortvaktDomain
@testable import PortvaktServer
@testable import PortvaktStorage
import PortvaktTestSupport
import Synchronization
import Testing

/// A rolling upgrade (issue 60 item 5): the next release migrates first (expand only), and this
/// release's instances keep serving on that schema until they are replaced.
@Suite("Rolling upgrades at the server")
struct RollingUpgradeServerTests {
    /// An expand migration as the next release may write one: new columns on the hot tables (one
    /// NOT NULL with a default, so this release's inserts still succeed) and a table of its own.
    static let nextExpand = Migration(version: Migration.all.last!.version + 1, name: "the next release's expand", apply: { db in
        try await db.raw("ALTER TABLE sessions ADD COLUMN next_release_label TEXT").run()
        try await db.raw("ALTER TABLE refresh_tokens ADD COLUMN next_release_generation INTEGER NOT NULL DEFAULT 0").run()
        try await db.raw("ALTER TABLE users ADD COLUMN next_release_locale TEXT").run()
        try await db.raw("CREATE TABLE next_release_notes (id BIGINT PRIMARY KEY, body TEXT NOT NULL)").run()
    }, kind: .expand)

    @Test("Issue 60 item 5: after the next release's expand migration this release's server starts, refreshes a session it began before, and answers a new BankID login and its refresh", arguments: TestDatabase.kinds)
    func thisReleaseServesOnTheNextSchema(kind: DatabaseKind) async throws {
        try await TestDatabase.withServerDatabase(kind) { databaseURL in
            var settings = ["PORTVAKT_DATA_DIR": FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-rolling-\(UUID().uuidString)").path]
            settings["DATABASE_URL"] = databaseURL
            let before = Mutex<String?>(nil)
            try await LiveBroker.serve(databaseURL: databaseURL, settings: settings) { broker in
                let tokens = try await broker.bankIDLogin("ola")
                before.withLock { $0 = tokens.refresh }
            }

            let configuration = try TestServer.configuration(settings)
            let applied = try await PortvaktApplication.withStore(configuration: configuration, logger: TestDatabase.logger) { store, _ in
                try await Migrator(driver: store.driver, migrations: Migration.all + [Self.nextExpand], logger: TestDatabase.logger).migrate()
            }
            #expect(applied == [Self.nextExpand.version])

            try await LiveBroker.serve(databaseURL: databaseURL, settings: settings) { broker in
                let earlier = try #require(before.withLock { $0 })
                let refreshed = try await broker.refresh(earlier)
                #expect(refreshed.status == 200, "the session begun before the upgrade refreshes: \(refreshed.body)")
                let tokens = try await broker.bankIDLogin("ola")
                let again = try await broker.refresh(tokens.refresh)
                #expect(again.status == 200, "\(again.body)")
                #expect(again.string("access_token") != nil)
            }
            // This release's commands find the schema current too; they never migrate.
            let pending = try await PortvaktApplication.withStore(configuration: configuration, logger: TestDatabase.logger) { store, _ in
                try await Migrator(driver: store.driver, logger: TestDatabase.logger).pendingVersions()
            }
            #expect(pending.isEmpty)
        }
    }
}
