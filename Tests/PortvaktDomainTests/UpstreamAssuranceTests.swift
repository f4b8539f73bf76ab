import Foundation
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import Testing

@Suite("BankID's high level comes from BankID's own ID token only")
struct UpstreamAssuranceTests {
    let now = Fixtures.now

    @Test("S1.2, issue 44 item 9: a session records BankID's acr only from BankID's ID token; another provider's claim of it, or of Portvakt's own values, is a plain login of that provider")
    func onlyBankIDBringsItsLevel() {
        #expect(Authentication.upstreamACR("urn:bankid:bid;LOA=4", provider: .bankid) == "urn:bankid:bid;LOA=4")
        #expect(Authentication.upstreamACR("urn:bankid:bis;LOA=3", provider: .bankid) == "urn:bankid:bis;LOA=3")
        #expect(Authentication.upstreamACR("urn:bankid:bid;LOA=4", provider: .vipps) == "urn:portvakt:vipps")
        #expect(Authentication.upstreamACR("URN:BankID:bid;LOA=4", provider: .vipps) == "urn:portvakt:vipps")
        #expect(Authentication.upstreamACR("urn:vipps:loa:substantial", provider: .vipps) == "urn:vipps:loa:substantial")
        #expect(Authentication.upstreamACR("urn:vipps:loa:substantial", provider: .bankid) == "urn:portvakt:bankid")
        #expect(Authentication.upstreamACR(nil, provider: .vipps) == "urn:portvakt:vipps")
        #expect(Authentication.upstreamACR("", provider: .bankid) == "urn:portvakt:bankid")
        #expect(Authentication.upstreamACR(Authentication.passkeyACR, provider: .bankid) == "urn:portvakt:bankid", "no upstream brings Portvakt's own values")
        #expect(Authentication.upstreamACR(Authentication.deviceACR, provider: .vipps) == "urn:portvakt:vipps")
        #expect(Authentication.upstreamACR("urn:bankid:bid;LOA=4" + String(repeating: ";x", count: 100), provider: .bankid) == "urn:portvakt:bankid")
    }

    @Test("S1.2, issue 44 item 9: where an organisation asks for BankID's high level, a Vipps login whose token claims it opens none of its administrators' actions; BankID's own does")
    func vippsNeverOpensTheHighLevel() {
        func administrator(_ acr: String, from provider: IdentityProvider) -> Actor {
            let session = Session.starting(
                userID: "ingrid", clientID: "portvakt-portal", amr: ["BID"], acr: Authentication.upstreamACR(acr, provider: provider),
                authTime: now, idleLifetime: 3600, absoluteLifetime: 86_400, now: now
            )
            return Actor(session: session, organisations: [Fixtures.nhf], highAssuranceOrganisations: ["nhf"])
        }
        let vipps = administrator("urn:bankid:bid;LOA=4", from: .vipps)
        let bankID = administrator("urn:bankid:bid;LOA=4", from: .bankid)
        #expect(!Authentication.isHighAssurance(vipps.session) && Authentication.isHighAssurance(bankID.session))
        for action in [SensitiveAction.personnummerReveal, .conflictResolve, .accountsMerge, .devicesRemoveAll] {
            #expect(throws: DomainError.stepUpRequired(action)) { try vipps.authorize(action, in: Fixtures.nhf, at: now) }
            #expect(throws: Never.self) { try bankID.authorize(action, in: Fixtures.nhf, at: now) }
        }
    }
}
