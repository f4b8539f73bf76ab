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

    @Test("S1.2, issue 44 item 9: BankID's high level counts only from BankID's ID token: a Vipps token that claims urn:bankid:bid;LOA=4 is a plain Vipps login and opens nothing an organisation keeps for the high level", arguments: TestDatabase.kinds)
    func highLevelOnlyFromBankID(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind, settings: ["PORTVAKT_HIGH_ASSURANCE_ORGANISATIONS": "nhf"]) { broker in
            let entry = try await AdminPortalTests.sofiesConflict(broker)
            try await broker.setFaults(["bankid_high_acr"], for: "vipps")
            let vipps = try #require(try await broker.tokens(provider: "vipps", user: "ingrid")["access_token"] as? String)
            #expect(LiveBroker.claims(vipps)["acr"] as? String == "urn:portvakt:vipps", "Vipps's claim of BankID's level is not recorded")
            let masked = try await broker.api(.GET, "/v1/organisations/nhf/member-sync/\(entry)", token: vipps)
            #expect(masked.status == 200 && !masked.body.contains("14889235307"), "a fresh login, but not BankID's high level")
            let resolve = try await broker.api(.POST, "/v1/organisations/nhf/member-sync/\(entry)/resolve", token: vipps, json: ["keep": "login"])
            #expect(resolve.status == 401 && resolve.string("error") == "insufficient_user_authentication")
            #expect(try await broker.withStore { try await $0.memberSyncEntry(id: entry)?.status } == "open")

            // The portal's Vipps sign-in likewise: masked, and revealing asks for a step-up.
            let cookie = try await PortalTests.signIn(broker, person: "ingrid", method: "vipps").cookie
            let page = try await AdminPortalTests.get(broker, "/admin/nhf/sync/\(entry)", cookie: cookie)
            #expect(page.body.contains("step_up=1") && !page.body.contains("/reveal"))
            let reveal = try await AdminPortalTests.post(broker, "/admin/nhf/sync/\(entry)/reveal", cookie: cookie, form: [("csrf", try PortalTests.csrf(in: page.body))])
            #expect(reveal.status == 401 && !reveal.body.contains("14889235307"))

            // BankID's own token at that level opens it.
            let bankID = try await broker.bankIDLogin("ingrid").access
            #expect(LiveBroker.claims(bankID)["acr"] as? String == "urn:bankid:bid;LOA=4")
            #expect(try await broker.api(.GET, "/v1/organisations/nhf/member-sync/\(entry)", token: bankID).body.contains("14889235307"))
        }
    }
}
