import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// Issue 44 item 4: a passkey that may be synced (backup eligible) can be shared through a
/// password manager, so it confirms none of the administrators' actions; a device-bound one does.
@Suite("Synced passkeys confirm nothing sensitive (S18.3)")
struct SyncedPasskeyTests {
    @Test("S18.3, issue 44 item 4: Ingrid, signed in with a synced passkey, cannot reveal a number: no passkey is offered, and one used to confirm is refused saying why; with a device-bound passkey she can", arguments: TestDatabase.kinds)
    func syncedPasskeyRevealsNothing(kind: DatabaseKind) async throws {
        try await PasskeyTests.run(kind) { broker in
            let (up, uv, be) = (SoftwareAuthenticator.up, SoftwareAuthenticator.uv, SoftwareAuthenticator.be)
            let entry = try await AdminPortalTests.sofiesConflict(broker)
            let path = "/admin/nhf/sync/\(entry)"
            let bankID = try await PortalTests.signIn(broker, person: "ingrid", method: "bankid").cookie
            let synced = try #require(try await PasskeyTests.register(broker, cookie: bankID, name: "Passordbehandler", flags: up | uv | be).holder)

            let syncedSignIn = try PasskeyTests.cookie(try await PasskeyTests.portalSignIn(broker, holder: synced, counter: 0, flags: up | uv | be))
            let masked = try await broker.send(path, headers: [("Cookie", syncedSignIn)])
            #expect(masked.status == 200 && !masked.body.contains("14889235307"))
            #expect(masked.body.contains("step_up=1") && !masked.body.contains("method=passkey&amp;step_up=1"), "only a device-bound passkey is offered")
            let refused = try await broker.send(
                path + "/reveal", method: .POST, form: [("csrf", try PortalTests.csrf(in: masked.body))], headers: [("Cookie", syncedSignIn)]
            )
            #expect(refused.status == 401 && !refused.body.contains("14889235307"), "a step-up is required")
            let confirming = try await PasskeyTests.portalSignIn(broker, holder: synced, counter: 0, stepUp: path, existing: syncedSignIn, flags: up | uv | be)
            #expect(confirming.status == 403 && confirming.body.contains("kan synkroniseres til andre enheter"), "\(confirming.body.prefix(300))")

            let bound = try #require(try await PasskeyTests.register(broker, cookie: bankID, name: "Jobb-PC").holder)
            let offered = try await broker.send(path, headers: [("Cookie", syncedSignIn)])
            #expect(offered.body.contains("method=passkey&amp;step_up=1"), "a device-bound passkey is offered once she has one")
            let boundSignIn = try PasskeyTests.cookie(try await PasskeyTests.portalSignIn(broker, holder: bound, counter: 1))
            let page = try await broker.send(path, headers: [("Cookie", boundSignIn)])
            let revealed = try await broker.send(
                path + "/reveal", method: .POST, form: [("csrf", try PortalTests.csrf(in: page.body))], headers: [("Cookie", boundSignIn)]
            )
            #expect(revealed.body.contains("14889235307"), "\(revealed.status) \(revealed.body.prefix(300))")
        }
    }
}
