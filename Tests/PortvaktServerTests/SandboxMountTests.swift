import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Personnummer
import PortvaktCore
import PortvaktModels
import PortvaktSandbox
@testable import PortvaktServer
import PortvaktStorage
import PortvaktTestSupport
import Testing

@Suite("Sandbox inside the server")
struct SandboxMountTests {
    @Test("The default server serves the sandbox under /sandbox, named by the Host it was reached at")
    func mounted() async throws {
        let app = try await PortvaktApplication.build(configuration: TestServer.configuration(), logger: TestServer.logger(into: LogSink()))
        try await app.test(.live) { client in
            let response = try await client.execute(uri: "/sandbox/vipps/access-management-1.0/access/.well-known/openid-configuration", method: .get)
            #expect(response.status == .ok)
            let issuer = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])["issuer"] as? String
            let pattern = #/^http://(localhost|127\.0\.0\.1)(:[0-9]+)?/sandbox/vipps/access-management-1\.0/access/$/#
            #expect(try pattern.wholeMatch(in: try #require(issuer)) != nil, "\(issuer ?? "")")
        }
    }

    @Test("With PORTVAKT_SANDBOX=off there is no sandbox")
    func off() async throws {
        let app = try await PortvaktApplication.build(configuration: TestServer.configuration(["PORTVAKT_SANDBOX": "off"]), logger: TestServer.logger(into: LogSink()))
        try await app.test(.live) { client in
            let response = try await client.execute(uri: "/sandbox/bankid/auth/realms/current/.well-known/openid-configuration", method: .get)
            #expect(response.status == .notFound)
        }
    }

    @Test("The sandbox refuses to run for a production configuration")
    func production() throws {
        var configuration = try TestServer.configuration(["PORTVAKT_SANDBOX": "off"])
        configuration.environment = .production
        #expect(throws: ConfigurationError.self) { try SandboxServer.build(configuration: configuration, logger: Logger(label: "test")) }
    }

    @Test("Faults and the admin token come from configuration; a bad fault list names the setting")
    func settings() throws {
        let configuration = try TestServer.configuration(["PORTVAKT_SANDBOX_FAULTS": "vipps:outage,bankid:nin_missing"])
        #expect(configuration.sandboxFaults[.vipps]?.faults == [.outage])
        #expect(configuration.sandboxFaults[.bankid]?.faults == [.personnummerMissing])
        #expect(throws: ConfigurationError.self) { try TestServer.configuration(["PORTVAKT_SANDBOX_FAULTS": "vipps:meltdown"]) }
        #expect(throws: ConfigurationError.self) { try TestServer.configuration(["PORTVAKT_SANDBOX_ADMIN_TOKEN": "short"]) }
    }

    @Test("Without a configured admin token one is generated once into the data directory, readable only by its owner")
    func generatedAdminToken() throws {
        let configuration = try TestServer.configuration()
        let first = try configuration.sandboxConfiguration(logger: Logger(label: "test")).adminToken
        let second = try configuration.sandboxConfiguration(logger: Logger(label: "test")).adminToken
        #expect(first == second && first.count >= 32)
        let path = (configuration.dataDirectory as NSString).appendingPathComponent(ServerConfiguration.sandboxAdminTokenFile)
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    @Test("The development seed creates the three organisations and the test members once", arguments: TestDatabase.kinds)
    func seed(kind: DatabaseKind) async throws {
        let text = DataProtectionKeys.generateText()
        let keys = try DataProtectionKeys(encryptionKeys: text.encryptionKeys, indexKey: text.indexKey, encryptionSetting: "test", indexSetting: "test")
        try await TestDatabase.withStore(kind) { store in
            let value1 = try await DevelopmentSeed.seed(store, vault: keys.vault, logger: Logger(label: "test"))
            #expect(value1 == ["nhf", "blindeforbundet", "hlf"])
            let value2 = try await DevelopmentSeed.seed(store, vault: keys.vault, logger: Logger(label: "test")).isEmpty
            #expect(value2)
            let organisations = try await store.organisations()
            #expect(Set(organisations.map(\.slug)) == ["nhf", "blindeforbundet", "hlf"])
            let nhf = try #require(organisations.first { $0.slug == "nhf" })
            let records = try await store.memberRecords(organisationID: nhf.id)
            // One record per NHF test person, and Kari's second record (an old import, for the merge tool).
            #expect(records.count == TestUsers.all.filter { $0.memberships.contains { $0.organisation == "nhf" } }.count + 1)
            #expect(records.filter { $0.fullName == "Kari Nordmann" }.compactMap(\.email).sorted() == ["kari.nordmann@sandbox.portvakt.test", "kari@sandbox.portvakt.test"])

            let ola = try #require(TestUsers.user(id: "ola"))
            let value3 = try await store.memberRecords(personnummerIndex: keys.vault.blindIndex(Personnummer(ola.personnummer, context: .test))).first
            let olaRecord = try #require(value3)
            #expect(olaRecord.role == .coordinator && olaRecord.phone == ola.phone)

            let kari = try #require(TestUsers.user(id: "kari"))
            let value4 = try await store.memberRecords(phone: kari.phone).first
            let kariRecord = try #require(value4)
            #expect(kariRecord.personnummer == nil)

            let sofie = try #require(TestUsers.user(id: "sofie"))
            let value5 = try await store.memberRecords(phone: sofie.phone).first
            let sofieRecord = try #require(value5)
            let stored = try keys.vault.open(try #require(sofieRecord.personnummer).sealed, record: MemberRecord.personnummerContext(recordID: sofieRecord.id))
            #expect(stored.digits != sofie.personnummer)

            let magnus = try #require(TestUsers.user(id: "magnus"))
            let value6 = try await store.memberRecords(phone: magnus.phone).count
            #expect(value6 == 2)
            let value7 = try await store.memberRecords(phone: try #require(TestUsers.user(id: "una")).phone).isEmpty
            #expect(value7)
        }
    }
}
