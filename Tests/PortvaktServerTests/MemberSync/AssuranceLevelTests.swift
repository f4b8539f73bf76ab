import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// BankID's levels of assurance: the level asked at sign-in where configured (BankID with
/// biometrics, substantial), kept as the session's `acr`, and BankID's high level required of an
/// organisation's administrators where it asks for it.
@Suite("BankID's level of assurance")
struct AssuranceLevelTests {
    @Test("S1.2, issue 35 item 12: BankID is asked for its biometric level where configured and the token keeps it; in an organisation that needs the high level a number shows in full only after a step-up at that level", arguments: TestDatabase.kinds)
    func levels(kind: DatabaseKind) async throws {
        let settings = ["PORTVAKT_BANKID_ACR_VALUES": "urn:bankid:bis", "PORTVAKT_HIGH_ASSURANCE_ORGANISATIONS": "nhf"]
        try await LiveBroker.run(kind, settings: settings) { broker in
            let entry = try await AdminPortalTests.sofiesConflict(broker)
            let login = AppLogin()
            let start = try await broker.send(login.authorizeURL(method: "bankid"))
            #expect(start.location?.removingPercentEncoding?.contains("acr_values=urn:bankid:bis") == true)
            let tokens = try await broker.tokens(provider: "bankid", user: "ingrid")
            let substantial = try #require(tokens["access_token"] as? String)
            #expect(LiveBroker.claims(substantial)["acr"] as? String == "urn:bankid:bis;LOA=3", "the level is kept")
            let masked = try await broker.api(.GET, "/v1/organisations/nhf/member-sync/\(entry)", token: substantial)
            #expect(masked.status == 200 && !masked.body.contains("14889235307"), "a fresh login, but not of the level NHF asks for")

            // A step-up (max_age=0) asks BankID for its high level.
            let stepUp = AppLogin()
            let asked = try await broker.send(stepUp.authorizeURL(method: "bankid", extra: [("max_age", "0")]))
            let providerURL = try #require(asked.location)
            #expect(providerURL.removingPercentEncoding?.contains("acr_values=urn:bankid:bid") == true)
            let atProvider = try await broker.send(providerURL + "&sandbox_user=ingrid&sandbox_action=approve")
            let back = try await broker.send(try #require(atProvider.location))
            let code = try #require(AppCallback(location: back.location).code)
            let high = try #require(try await stepUp.redeem(code, at: broker).string("access_token"))
            #expect(LiveBroker.claims(high)["acr"] as? String == "urn:bankid:bid;LOA=4")
            let full = try await broker.api(.GET, "/v1/organisations/nhf/member-sync/\(entry)", token: high)
            #expect(full.body.contains("14889235307"), "in full after BankID's high level")
        }
    }
}
