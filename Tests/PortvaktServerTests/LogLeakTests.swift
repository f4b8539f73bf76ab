import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Personnummer
import PortvaktCore
import PortvaktModels
import PortvaktServer
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// A personnummer that enters the server (in a URL, a header, a body, the database) never
/// reaches a log line, at any log level.
@Suite("No personnummer in logs")
struct LogLeakTests {
    static let digits = "15058600048"
    static let forms = ["15058600048", "150586 00048", "150586-00048"]

    static func assertClean(_ text: String) {
        #expect(!text.isEmpty)
        for form in forms { #expect(!text.contains(form)) }
        #expect(!text.contains("00048"))
    }

    @Test("Requests carrying a personnummer in path, query, headers and body leave no trace in the logs")
    func httpRequests() async throws {
        let sink = LogSink()
        let app = try await PortvaktApplication.build(configuration: TestServer.configuration(), logger: TestServer.logger(into: sink))
        try await app.test(.live) { client in
            for form in Self.forms {
                let escaped = form.replacingOccurrences(of: " ", with: "%20")
                var headers = HTTPFields()
                headers[HTTPField.Name("X-Personnummer")!] = form
                headers[.authorization] = "Bearer \(form)"
                _ = try await client.execute(uri: "/members/\(escaped)?nin=\(escaped)", method: .get, headers: headers)
                _ = try await client.execute(uri: "/health/ready?personnummer=\(escaped)", method: .get)
                _ = try await client.execute(
                    uri: "/oauth/token", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"nin":"\#(form)"}"#)
                )
            }
        }
        Self.assertClean(sink.text)
        #expect(sink.text.contains("path=/members/[redacted]"))
    }

    @Test("Storing, finding and colliding on a personnummer logs no digits, database driver traces included", arguments: TestDatabase.kinds)
    func storage(kind: DatabaseKind) async throws {
        let sink = LogSink()
        let logger = TestServer.logger(into: sink)
        let keys = DataProtectionKeys.generateText()
        let vault = try DataProtectionKeys(encryptionKeys: keys.encryptionKeys, indexKey: keys.indexKey, encryptionSetting: "E", indexSetting: "I").vault
        let number = try Personnummer(Self.digits)
        try await TestDatabase.withDriver(kind, logger: logger) { driver in
            let store = PortvaktStore(driver: driver, auditKeys: TestDatabase.auditKeys)
            try await Migrator(driver: driver, logger: logger).migrate()
            let organisation = try await store.createOrganisation(slug: "nhf", name: "NHF")
            let seal = { (id: String) in try vault.protect(number, record: "member:\(id)") }
            let member = try await store.createMemberRecord(organisationID: organisation.id, NewMemberRecord(fullName: "Ada"), personnummer: seal)
            do {
                _ = try await store.createMemberRecord(organisationID: organisation.id, NewMemberRecord(fullName: "Copy"), personnummer: seal)
            } catch {
                logger.error("member import failed", metadata: ["error": "\(error)", "personnummer": "\(number)"])
            }
            let found = try await store.memberRecords(personnummerIndex: vault.blindIndex(number))
            let opened = try vault.open(try #require(found.first?.personnummer).sealed, record: "member:\(member.id)")
            logger.info("opened member \(member.id): \(opened) masked \(opened.masked)")
            logger.debug("debugging \(String(reflecting: opened)) raw \(opened.digits)")
        }
        Self.assertClean(sink.text)
        #expect(!sink.text.contains("Executing query"), "SQLKit's query log (with binds) is off")
    }
}
