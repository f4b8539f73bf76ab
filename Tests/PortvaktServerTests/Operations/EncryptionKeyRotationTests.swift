import Crypto
import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Synchronization
import Testing
@testable import PortvaktServer

/// Issue 46 item 5: `rotate-encryption-key` re-seals every sealed value under the newest key, so
/// the older one can be removed from `PORTVAKT_ENCRYPTION_KEYS` and everything still opens.
@Suite("Retiring an encryption key")
struct EncryptionKeyRotationTests {
    static func key(_ id: String) -> String {
        "\(id)=" + Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64EncodedString()
    }

    @Test("Issue 46 item 5: data sealed under k1 (personnummer, member records, a contact, pending and pushed logins, a BankID order, mail, signing keys) is re-sealed under k2 in batches; run again it finds nothing; with k1 removed it all still opens (a further rotation to k3 reads every value) and the server serves logins; a value whose key is gone is named, not skipped", arguments: TestDatabase.kinds)
    func retireAKey(kind: DatabaseKind) async throws {
        try await TestDatabase.withServerDatabase(kind) { databaseURL in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("portvakt-rotation-\(UUID().uuidString)").path
            let (k1, k2, k3) = (Self.key("k1"), Self.key("k2"), Self.key("k3"))
            var base = ["PORTVAKT_DATA_DIR": directory, "PORTVAKT_INDEX_KEY": Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64EncodedString()]
            base["DATABASE_URL"] = databaseURL
            let settings = { (keys: String) in base.merging(["PORTVAKT_ENCRYPTION_KEYS": keys]) { $1 } }

            // A server under k1: Ola's first BankID login (his number sealed on his account and sent
            // back to the member system), a contact, a login left half-way, and a mail.
            try await LiveBroker.serve(databaseURL: databaseURL, settings: settings(k1)) { broker in
                let ola = try await broker.bankIDLogin("ola").access
                let contact = try await broker.api(.POST, "/v1/contacts", token: ola, json: [
                    "organisation": "nhf", "display_name": "Anne", "details": ["phone": "+4790000999"],
                ])
                #expect(contact.status == 201, "\(contact.body)")
                #expect(try await broker.send(AppLogin().authorizeURL(method: "vipps")).status == 303)
                let pushed = try await broker.send("/oauth/par", method: .POST, form: SenderConstraintTests.pushedForm(AppLogin()))
                #expect(pushed.status == 201, "\(pushed.body)")
                #expect(try await broker.startOrder(AppLogin()).status == 201)
            }
            let underK1 = try TestServer.configuration(settings(k1))
            try await PortvaktApplication.withStore(configuration: underK1, logger: TestDatabase.logger) { store, keys in
                let id = UUID().uuidString.lowercased()
                let body = try keys.cipher.seal(Data("Your code is 123456".utf8), context: MailOutboxMessage.bodyContext(messageID: id))
                try await store.enqueueMail([MailOutboxMessage(id: id, recipient: "ola@example.org", language: "nb", kind: "membership_code", subject: "Kode", body: body, now: Date())])
            }

            // k2 first, k1 still there: everything moves to k2, two rows at a time.
            let progress = Mutex<[PortvaktApplication.ResealReport]>([])
            let rotated = try await PortvaktApplication.rotateEncryptionKey(
                configuration: try TestServer.configuration(settings(k2 + "," + k1)), logger: TestDatabase.logger, batchSize: 2
            ) { report in progress.withLock { $0.append(report) } }
            let moved = Dictionary(uniqueKeysWithValues: rotated.map { ($0.column, $0.resealed) })
            for column in ["users.personnummer_sealed", "member_records.personnummer_sealed", "contacts.details_sealed", "login_flows.payload_sealed",
                           "mail_outbox.body_sealed", "signing_keys.private_key_sealed", "rsa_signing_keys.private_key_sealed", "bankid_orders.payload_sealed"] {
                #expect((moved[column] ?? 0) > 0, "\(column) had values under k1: \(moved)")
            }
            #expect(Set(rotated.map(\.column)) == Set(SealedColumn.all.map(\.name)), "every sealed column is visited")
            #expect(progress.withLock { $0.contains { $0.column == "member_records.personnummer_sealed" && $0.remaining > 0 } }, "batches report what is left")

            // Interrupted or not, running it again is safe and finds nothing to do.
            let again = try await PortvaktApplication.rotateEncryptionKey(configuration: try TestServer.configuration(settings(k2 + "," + k1)), logger: TestDatabase.logger)
            #expect(again.allSatisfy { $0.resealed == 0 })

            // k1 removed: every value opens under k2 alone (a rotation to k3 reads them all).
            let toK3 = try await PortvaktApplication.rotateEncryptionKey(configuration: try TestServer.configuration(settings(k3 + "," + k2)), logger: TestDatabase.logger)
            #expect(Dictionary(uniqueKeysWithValues: toK3.map { ($0.column, $0.resealed) }) == moved, "the same values, each read under k2")

            // A server with k3 alone signs Ola in again and publishes its keys.
            try await LiveBroker.serve(databaseURL: databaseURL, settings: settings(k3)) { broker in
                _ = try await broker.bankIDLogin("ola")
                let contacts = try await broker.api(.GET, "/v1/contacts?organisation=nhf", token: try await broker.bankIDLogin("ola").access)
                #expect(contacts.status == 200 && contacts.body.contains("Anne"), "\(contacts.body)")
                #expect(try await broker.send("/.well-known/jwks.json").status == 200)
            }

            // A key removed before its values were moved: the rotation stops and names where.
            let refused = try await #require(throws: ResealError.self) {
                try await PortvaktApplication.rotateEncryptionKey(configuration: try TestServer.configuration(settings(Self.key("k4"))), logger: TestDatabase.logger)
            }
            #expect(refused.description.contains("sealed under key k3") && refused.description.contains("add that key back"))
        }
    }
}
