import Crypto
import Foundation
import Personnummer
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import SQLKit
import Synchronization
import Testing
@testable import PortvaktServer

/// Issue 46 item 5: `reindex` moves the personnummer blind indexes, and the BankID app logins'
/// `nnin:` subjects with them, to a new `PORTVAKT_INDEX_KEY`; no instance serves with a key the
/// database's indexes are not under.
@Suite("Changing the index key")
struct IndexKeyChangeTests {
    static func randomKey() -> String { Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64EncodedString() }
    static let magnus = "05878330724"

    @Test("Issue 46 item 5: with a new PORTVAKT_INDEX_KEY the server refuses to start; reindex refuses without PORTVAKT_AUDIT_KEY and while the trail would not verify; then moves users, member records and the BankID app login's nnin: subject in batches, a second run has nothing to do, the trail verifies, the old key and a missing audit key are refused, and Magnus (BankID app) and Ola (Vipps) reach their accounts again", arguments: TestDatabase.kinds)
    func changeTheIndexKey(kind: DatabaseKind) async throws {
        try await TestDatabase.withServerDatabase(kind) { databaseURL in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-reindex-\(UUID().uuidString)").path
            var base = ["PORTVAKT_DATA_DIR": directory, "PORTVAKT_ENCRYPTION_KEYS": "k1=\(Self.randomKey())"]
            base["DATABASE_URL"] = databaseURL
            let before = base.merging(["PORTVAKT_INDEX_KEY": Self.randomKey()]) { $1 }
            let ids = Mutex<[String: String]>([:])
            try await LiveBroker.serve(databaseURL: databaseURL, settings: before) { broker in
                let magnus = try await Self.bankIDAppLogin(broker, user: "magnus")
                let ola = try await broker.userID(token: try await broker.bankIDLogin("ola").access)
                ids.withLock { $0 = ["magnus": magnus, "ola": ola] }
            }
            let logger = TestDatabase.logger
            let entry = try PortvaktApplication.derivedAuditKeyEntry(configuration: try TestServer.configuration(before), logger: logger)
            #expect(entry.hasPrefix("index="))

            // Another index key: no instance starts with it, nor does an operator command run with
            // it, even where the database records no key yet (upgraded from before it did): the
            // stored numbers tell.
            let after = base.merging(["PORTVAKT_INDEX_KEY": Self.randomKey()]) { $1 }
            try await Self.expectRefusedStart(databaseURL, after, saying: "PORTVAKT_INDEX_KEY is not the key this database's personnummer indexes were made with")
            try await PortvaktApplication.withStore(configuration: try TestServer.configuration(before), logger: logger) { store, _ in
                try await store.driver.withSession { db in try await db.delete(from: "index_key_state").run() }
            }
            try await Self.expectRefusedStart(databaseURL, after, saying: "PORTVAKT_INDEX_KEY is not the key this database's personnummer indexes were made with")
            let command = try await #require(throws: ConfigurationError.self) {
                try await PortvaktApplication.rotateSigningKey(configuration: try TestServer.configuration(after), logger: logger)
            }
            #expect(command.description.contains("PORTVAKT_INDEX_KEY is not the key"))

            // reindex: not without an audit key of its own, nor with one the trail does not verify under.
            let noAuditKey = try await #require(throws: ConfigurationError.self) {
                try await PortvaktApplication.reindex(configuration: try TestServer.configuration(after), logger: logger, instancesStop: .zero)
            }
            #expect(noAuditKey.description.contains("PORTVAKT_AUDIT_KEY") && noAuditKey.description.contains("audit derived-key"))
            let newAuditKey = "a1=\(Self.randomKey())"
            let unverified = try await #require(throws: ConfigurationError.self) {
                try await PortvaktApplication.reindex(
                    configuration: try TestServer.configuration(after.merging(["PORTVAKT_AUDIT_KEY": newAuditKey]) { $1 }), logger: logger, instancesStop: .zero
                )
            }
            #expect(unverified.description.contains("does not verify"))
            let derivedOnly = try await #require(throws: ConfigurationError.self) {
                try await PortvaktApplication.reindex(configuration: try TestServer.configuration(after.merging(["PORTVAKT_AUDIT_KEY": entry]) { $1 }), logger: logger, instancesStop: .zero)
            }
            #expect(derivedOnly.description.contains("must begin with a key of its own"))

            let changed = after.merging(["PORTVAKT_AUDIT_KEY": "\(newAuditKey),\(entry)"]) { $1 }
            let progress = Mutex<[String]>([])
            let reports = try #require(try await PortvaktApplication.reindex(
                configuration: try TestServer.configuration(changed), logger: logger, batchSize: 3, instancesStop: .zero
            ) { line in progress.withLock { $0.append(line) } })
            let counts = Dictionary(uniqueKeysWithValues: reports.map { ($0.table, $0.updated) })
            #expect((counts["users"] ?? 0) >= 2 && (counts["member_records"] ?? 0) > 3, "\(counts)")
            #expect(progress.withLock { $0.contains { $0.hasPrefix("member_records: ") } }, "batches report progress")
            #expect(try await PortvaktApplication.reindex(configuration: try TestServer.configuration(changed), logger: logger, instancesStop: .zero) == nil)
            #expect(try await PortvaktApplication.verifyAuditChain(configuration: try TestServer.configuration(changed), logger: logger).firstBroken == nil)

            // The BankID app login's subject moved with Magnus's index.
            try await PortvaktApplication.withStore(configuration: try TestServer.configuration(changed), logger: logger) { store, keys in
                let subjects = try await store.driver.withSession { db in
                    try await db.select().column("subject").from("identities").where("provider", .equal, "bankid").where("subject", .like, "nnin:%").all()
                        .map { try $0.decode(column: "subject", as: String.self) }
                }
                #expect(subjects == ["nnin:" + keys.vault.blindIndex(try Personnummer(Self.magnus, context: .test))])
            }

            // Since the key changed, the trail needs its own key; the old index key is refused, by
            // servers and operator commands alike.
            try await Self.expectRefusedStart(databaseURL, after, saying: "PORTVAKT_AUDIT_KEY must begin with a key of its own")
            try await Self.expectRefusedStart(databaseURL, after.merging(["PORTVAKT_AUDIT_KEY": entry]) { $1 }, saying: "PORTVAKT_AUDIT_KEY must begin with a key of its own")
            try await Self.expectRefusedStart(databaseURL, before, saying: "PORTVAKT_INDEX_KEY is not the key")
            let stale = await #expect(throws: ConfigurationError.self) {
                try await PortvaktApplication.rotateSigningKey(configuration: try TestServer.configuration(before), logger: logger)
            }
            #expect(stale?.description.contains("PORTVAKT_INDEX_KEY is not the key") == true)
            try await LiveBroker.serve(databaseURL: databaseURL, settings: changed) { broker in
                #expect(try await Self.bankIDAppLogin(broker, user: "magnus") == ids.withLock { $0["magnus"] })
                let vipps = try await broker.tokens(provider: "vipps", user: "ola")
                #expect(try await broker.userID(token: try #require(vipps["access_token"] as? String)) == ids.withLock { $0["ola"] })
            }
        }
    }

    @Test("Issue 46 item 5: a running instance stops when a reindex to another key begins, naming why; while it runs, no instance starts with either key, and a reindex to a third key does not begin unless it takes over", .timeLimit(.minutes(2)), arguments: TestDatabase.kinds)
    func runningInstancesStop(kind: DatabaseKind) async throws {
        try await TestDatabase.withServerDatabase(kind) { databaseURL in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-reindex-\(UUID().uuidString)").path
            var settings = ["PORTVAKT_DATA_DIR": directory, "PORTVAKT_ENCRYPTION_KEYS": "k1=\(Self.randomKey())", "PORTVAKT_INDEX_KEY": Self.randomKey()]
            settings["DATABASE_URL"] = databaseURL
            let newKey = Self.randomKey()
            _ = try await PortvaktApplication.migrate(configuration: try TestServer.configuration(settings), logger: TestDatabase.logger)
            try await PortvaktApplication.withStore(configuration: try TestServer.configuration(settings), logger: TestDatabase.logger) { store, keys in
                _ = try await store.indexKeyState(recordingIfFirst: keys.indexKeyFingerprint)
                let readiness = Readiness()
                readiness.migrated()
                let guardService = IndexKeyGuard(
                    store: store, fingerprint: keys.indexKeyFingerprint, sealingAuditKeyID: keys.auditKeys.currentID, readiness: readiness,
                    logger: TestDatabase.logger, every: .milliseconds(50)
                )
                let fingerprint = { (key: String) in
                    try DataProtectionKeys(encryptionKeys: "k1=\(Self.randomKey())", indexKey: key, encryptionSetting: "E", indexSetting: "I").indexKeyFingerprint
                }
                let newFingerprint = try fingerprint(newKey)
                let begun = try await store.beginReindex(to: newFingerprint, takingOver: false)
                #expect(begun.begun && begun.state.reindexingTo == newFingerprint)
                let third = try fingerprint(Self.randomKey())
                #expect(try await store.beginReindex(to: third, takingOver: false).begun == false, "another reindex is unfinished")
                #expect(try await store.beginReindex(to: third, takingOver: true).state.reindexingTo == third)
                #expect(try await store.beginReindex(to: newFingerprint, takingOver: true).begun)
                let stopped = await #expect(throws: ConfigurationError.self) { try await guardService.run() }
                #expect(stopped?.description.contains("being reindexed to another index key") == true)
            }
            try await Self.expectRefusedStart(databaseURL, settings, saying: "being reindexed to another index key")
            try await Self.expectRefusedStart(databaseURL, settings.merging(["PORTVAKT_INDEX_KEY": newKey]) { $1 }, saying: "being reindexed to this key")
        }
    }

    /// Magnus through the BankID app (the order flow): his user id.
    static func bankIDAppLogin(_ broker: LiveBroker, user: String) async throws -> String {
        let login = AppLogin()
        let order = try await broker.startedOrder(login)
        #expect(try await broker.bankIDApp(autoStartToken: order.autoStartToken, user: user, action: "approve").string("status") == "complete")
        let code = try #require(try await broker.collect(order.session).string("code"))
        let tokens = try await login.redeem(code, at: broker)
        let access = try #require(tokens.string("access_token"))
        return try #require(LiveBroker.claims(access)["sub"] as? String)
    }

    static func expectRefusedStart(_ databaseURL: String?, _ settings: [String: String], saying text: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let refusal = await #expect(throws: ConfigurationError.self, sourceLocation: sourceLocation) {
            try await LiveBroker.serve(databaseURL: databaseURL, settings: settings) { _ in }
        }
        #expect(refusal?.description.contains(text) == true, "\(refusal?.description ?? "started")", sourceLocation: sourceLocation)
    }
}
