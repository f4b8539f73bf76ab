import Foundation
import PortvaktCore
@testable import PortvaktServer
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Going live from empty (issue 45, item 6): `portvakt-server dev --no-seed` (PORTVAKT_SEED=off)
/// runs the sandbox's BankID and Vipps without putting its organisations and people into the database.
@Suite("dev --no-seed")
struct NoSeedTests {
    @Test("Issue 45 item 6: PORTVAKT_SEED is on in development unless turned off, and production refuses it")
    func setting() throws {
        #expect(try TestServer.configuration().developmentSeed)
        #expect(try !TestServer.configuration(["PORTVAKT_SEED": "off"]).developmentSeed)
        #expect(throws: ConfigurationError.self) { try TestServer.configuration(["PORTVAKT_SEED": "sometimes"]) }

        let production = ConfigurationTests.productionSettings
        #expect(try !ServerConfiguration.load(.production, from: production).developmentSeed)
        let refused = try #require(throws: ConfigurationError.self) {
            try ServerConfiguration.load(.production, from: production.merging(["PORTVAKT_SEED": "on"]) { $1 })
        }
        #expect(refused.description.contains("PORTVAKT_SEED"))
    }

    @Test("Issue 45 item 6: dev --no-seed starts the sandbox providers with no organisations and no members; a test person's BankID login answers not_registered", arguments: TestDatabase.kinds)
    func startsEmpty(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: ["PORTVAKT_SEED": "off"]) { broker in
            #expect(broker.configuration.sandboxEnabled && !broker.configuration.developmentSeed)
            let organisations = try await PortvaktApplication.organisations(configuration: broker.configuration, logger: TestDatabase.logger)
            #expect(organisations.isEmpty)
            let discovery = try await broker.send("/sandbox/bankid/auth/realms/current/.well-known/openid-configuration")
            #expect(discovery.status == 200, "the simulated BankID runs")

            let (app, _) = try await broker.providerLogin(AppLogin(), provider: "bankid", user: "ola")
            #expect(app.error == "access_denied")
            #expect(app.messageID == "not_registered")
            let user = try await broker.withStore { store in try await store.user(provider: .bankid, subject: "b1d00000-0000-4000-8000-000000000002") }
            #expect(user == nil, "no account was made")
            #expect(!broker.logs.text.contains("Seeded the sandbox organisations"))
        }
    }

    @Test("Issue 45, done when: from dev --no-seed, organisation create ffo and an import make Una its org_admin; her Vipps sign-in reaches /admin/ffo", arguments: TestDatabase.kinds)
    func goingLiveFromEmpty(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: ["PORTVAKT_SEED": "off"]) { broker in
            let (before, _) = try await broker.providerLogin(AppLogin(), provider: "vipps", user: "una")
            #expect(before.messageID == "not_registered", "nobody is a member yet")
            try await PortvaktApplication.createOrganisation(
                configuration: broker.configuration, logger: TestDatabase.logger, slug: "ffo", name: OperatorCommandTests.ffo
            )
            let report = try await OperatorCommandTests.importFile(broker.configuration, OperatorCommandTests.file(), apply: true)
            #expect(report.changes == ["add  external_id=ffo-una (org_admin)"])

            let (cookie, _) = try await PortalTests.signIn(broker, person: "una")
            let admin = try await AdminPortalTests.get(broker, "/admin/ffo", cookie: cookie)
            #expect(admin.status == 200 && admin.body.contains(OperatorCommandTests.ffo), "\(admin.status) \(admin.body.prefix(300))")
            let members = try await AdminPortalTests.get(broker, "/admin/ffo/members", cookie: cookie)
            #expect(members.status == 200 && members.body.contains(OperatorCommandTests.una.familyName))
        }
    }
}
