import Foundation
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// Issue 44 item 7: anyone can type a member's address, so only a send whose name matches the
/// record counts against the address's allowance; the claim's and the identity's count first.
extension MembershipClaimTests {
    /// How many membership codes the sandbox's mailbox shows for `recipient`.
    static func codesMailed(_ broker: LiveBroker, to recipient: String) async throws -> Int {
        try await AdminPortalTests.mailbox(broker).filter { $0.contains(recipient) && $0.firstMatch(of: /<p>(\d{6})<\/p>/) != nil }.count
    }

    @Test(
        "S15.2, issue 44 item 7: codes a stranger asks for at a member's address use up the stranger's claims and identity, not the address: the member still gets hers; her own sends count against the address, the sixth mailing nothing and answered as for an address not on record",
        arguments: TestDatabase.kinds
    )
    func S15_2_aStrangerCannotSpendTheAddress(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            // The claims are opened first, so the sends follow each other within the throttles' first wait (5 s).
            var una: [ClaimInBrowser] = []
            for _ in 0..<3 { una.append(try await Self.claimPage(broker, user: "una").handle) }
            var lise: [ClaimInBrowser] = []
            for _ in 0..<3 { lise.append(try await Self.claimPage(broker, user: "lise").handle) }

            // Una Utenfor types Lise's address: three codes in each of two claims, her identity's six.
            for handle in una.prefix(2) {
                for _ in 0..<3 {
                    let sent = try await Self.sendCode(broker, handle: handle, email: Self.liseEmail)
                    #expect(sent.status == 200, "a name that does not match spends nothing of the address: \(sent.status)")
                }
            }
            #expect(try await Self.sendCode(broker, handle: una[2], email: Self.liseEmail).status == 429, "Una's identity has had its six")
            #expect(try await Self.codesMailed(broker, to: Self.liseEmail) == 0)

            // Lise asks after her: the code comes.
            #expect(try await Self.sendCode(broker, handle: lise[0], email: Self.liseEmail).status == 200)
            let code = try #require(try await Self.mailedCode(broker, to: Self.liseEmail), "the member still gets a code")

            // Her own sends count against the address: five codes, then a sixth that mails nothing.
            for _ in 0..<3 { #expect(try await Self.sendCode(broker, handle: lise[1], email: Self.liseEmail).status == 200) }
            for _ in 0..<2 { #expect(try await Self.sendCode(broker, handle: lise[2], email: Self.liseEmail).status == 200) }
            #expect(try await Self.codesMailed(broker, to: Self.liseEmail) == 5, "the address's five; the sixth is answered as for no record")

            #expect(try await Self.enter(broker, handle: lise[0], code: code).status == 303, "her first code links")
        }
    }
}
