import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// Issue 44 item 3: "Remove all devices" ends the member's phones in every organisation they
/// belong to, so one organisation's administrator needs the step-up of the other sensitive
/// actions, in the portal and over JSON alike.
@Suite("Administration: removing a member's phones")
struct AdminDevicesTests {
    @Test("Issue 44 item 3: Remove all devices says it reaches every organisation of the member and needs a BankID, Vipps or passkey confirmation of the last 5 minutes, in the portal and over JSON; without one the phone still unlocks", arguments: TestDatabase.kinds)
    func removeAllDevicesNeedsStepUp(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let kari = try #require(try await broker.tokens(provider: "vipps", user: "kari")["access_token"] as? String)
            let kariID = try await broker.userID(token: kari)
            let phone = try await broker.registerDevice(TestDevice(), token: kari)
            let record = try await broker.withStore { store in
                let nhf = try #require(try await store.organisation(slug: "nhf"))
                return try #require(try await store.memberRecords(organisationID: nhf.id).first { $0.externalRef == "sandbox-kari" }).id
            }
            let path = "/admin/nhf/members/\(record)"
            // Issue 58: her record carries her number, so her account is made by BankID; then the password.
            _ = try await broker.bankIDLogin("ingrid")
            _ = try await PortvaktApplication.setPassword(
                configuration: broker.configuration, logger: TestDatabase.logger, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password
            )

            // A password sign-in: the page offers the step-up, back to the member, instead of the button.
            let cookie = try await AdminPortalTests.signInWithPassword(broker, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password)
            let page = try await AdminPortalTests.get(broker, path, cookie: cookie)
            #expect(page.status == 200 && page.body.contains("Karis iPhone"))
            #expect(page.body.contains("i alle organisasjoner medlemmet er med i"), "the page says the phones stop in every organisation")
            #expect(page.body.contains("step_up=1") && !page.body.contains("/devices/remove"), "no button before the step-up")
            let refused = try await AdminPortalTests.post(broker, path + "/devices/remove", cookie: cookie, form: [("csrf", try PortalTests.csrf(in: page.body))])
            #expect(refused.status == 401)
            #expect(refused.body.contains("step_up=1&amp;back=\(FormFields.encode(path))"), "the step-up comes back to the member")
            #expect(try await broker.unlock(phone).status == 200, "the phone still unlocks")

            // Over JSON the same policy: a password session is refused as a fresh login is asked for.
            let login = AppLogin()
            let flow = try await PasswordLoginTests.form(login, at: broker)
            let submitted = try await PasswordLoginTests.submit(flow, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password, at: broker)
            let code = try #require(AppCallback(location: submitted.location).code)
            let password = try #require(try await login.redeem(code, at: broker).string("access_token"))
            let api = try await broker.api(.DELETE, "/v1/organisations/nhf/members/\(kariID)/devices", token: password)
            #expect(api.status == 401 && api.string("error") == "insufficient_user_authentication")
            #expect(try await broker.unlock(phone).status == 200, "the phone still unlocks")
            #expect(try await Self.revocations(broker, of: phone.id).isEmpty)

            // After a confirmation with Vipps the button is there, and works.
            let confirmed = try await Self.stepUp(broker, cookie: cookie, person: "ingrid", back: path)
            #expect(confirmed.status == 303 && confirmed.location == path)
            let renewed = try #require(confirmed.cookie("portvakt"))
            let ready = try await AdminPortalTests.get(broker, path, cookie: renewed)
            #expect(ready.body.contains("/devices/remove") && !ready.body.contains("step_up=1"))
            let english = try await broker.send(path, headers: [("Cookie", renewed), ("Accept", "text/html"), ("Accept-Language", "en")])
            #expect(english.body.contains("in every organisation the member belongs to"))
            let removed = try await AdminPortalTests.post(broker, path + "/devices/remove", cookie: renewed, form: [("csrf", try PortalTests.csrf(in: ready.body))])
            #expect(removed.status == 303 && removed.location == path + "?done=devices_removed")
            #expect(try await broker.challenge(phone.id, purpose: .unlock).status == 404, "the phone no longer unlocks")
            let audited = try await Self.revocations(broker, of: phone.id)
            #expect(audited.count == 1 && audited.first?.source == "portal" && audited.first?.details["by"] == "org_admin")
        }
    }

    /// The audit trail's revocations of the device (its registration and unlocks are there too).
    static func revocations(_ broker: LiveBroker, of deviceID: String) async throws -> [AuditEvent] {
        try await broker.withStore { store in
            try await store.auditEvents(subjectType: "device", subjectID: deviceID).filter { $0.action == "device.revoked" }
        }
    }

    /// The portal's step-up through the sandbox's Vipps as `person`; returns the portal callback's answer.
    static func stepUp(_ broker: LiveBroker, cookie: String, person: String, back: String) async throws -> LiveBroker.Reply {
        let start = try await AdminPortalTests.get(broker, "/portal/login?method=vipps&step_up=1&back=\(FormFields.encode(back))", cookie: cookie)
        let binder = try PortalTests.signInCookie(start)
        let authorize = try await broker.send(try #require(start.location))
        let approved = try await broker.send(try #require(authorize.location) + "&sandbox_user=\(person)&sandbox_action=approve")
        let returned = try await broker.send(try #require(approved.location))
        return try await AdminPortalTests.get(broker, try #require(returned.location), cookie: cookie + "; " + binder)
    }
}
