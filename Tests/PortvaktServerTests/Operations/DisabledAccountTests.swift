import Foundation
import NIOHTTP1
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktSandbox
@testable import PortvaktServer
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Issue 45 item 5, "Disabled means disabled, everywhere", with `user disable`, `user enable` and
/// `user sign-out` (item 4) through the functions the commands call, and an administrator's
/// suspension of one membership from the Members page, on a live server of each database.
@Suite("Disabled accounts, signing out everywhere, suspended memberships")
struct DisabledAccountTests {
    static let kari = TestUsers.user(id: "kari")!
    static let reason = "Sak 2026-201: meldt ut av koordinator"

    /// Kari's ways in, made before she is disabled.
    struct Ways: Sendable {
        let userID: String
        let access: String
        let refresh: String
        let device: TestDevice
        let holder: PasskeyTests.Holder
        let portal: String
    }

    /// Her record has no number: her Vipps login finds it by phone and makes her account with the
    /// number Vipps gave, which her BankID logins then find. A phone, a password, a portal sign-in
    /// and a passkey added there.
    static func kariWithEveryWayIn(_ broker: LiveBroker) async throws -> Ways {
        let vipps = try await broker.tokens(provider: "vipps", user: "kari")
        let access = try #require(vipps["access_token"] as? String)
        let refresh = try #require(vipps["refresh_token"] as? String)
        let userID = try await broker.userID(token: access)
        let device = try await broker.registerDevice(TestDevice(), token: access)
        _ = try await PortvaktApplication.setPassword(
            configuration: broker.configuration, logger: TestDatabase.logger, email: kari.email, password: PasswordLoginTests.password
        )
        let portal = try await PortalTests.signIn(broker, person: "kari", method: "vipps").cookie
        let holder = try #require(try await PasskeyTests.register(broker, cookie: portal).holder)
        return Ways(userID: userID, access: access, refresh: refresh, device: device, holder: holder, portal: portal)
    }

    /// A sign-in of the portal as Kari with Vipps, up to its callback page.
    static func portalSignIn(_ broker: LiveBroker) async throws -> (callback: String, page: LiveBroker.Reply) {
        let start = try await broker.send("/portal/login?method=vipps&person=kari")
        let binder = try PortalTests.signInCookie(start)
        let authorize = try await broker.send(try #require(start.location))
        let approved = try await broker.send(try #require(authorize.location) + "&sandbox_user=kari&sandbox_action=approve")
        let back = try await broker.send(try #require(approved.location))
        let callback = try #require(back.location)
        return (callback, try await broker.send(callback, headers: [("Cookie", binder)]))
    }

    @Test(
        "Issue 45 item 5: user disable stops Kari on every way in with the same words (BankID and Vipps in the browser, the BankID order, password, passkey, device unlock, step-up, the portal), her refresh token, access token and portal session end at once; user enable gives her phone and passkey back",
        arguments: TestDatabase.kinds
    )
    func disabledEverywhere(kind: DatabaseKind) async throws {
        try await PasskeyTests.run(kind) { broker in
            let ways = try await Self.kariWithEveryWayIn(broker)
            let configuration = broker.configuration
            let logger = TestDatabase.logger

            let disabled = try await PortvaktApplication.disableUser(configuration: configuration, logger: logger, user: .email(Self.kari.email), reason: Self.reason)
            #expect(disabled.changed && disabled.userID == ways.userID)
            #expect(disabled.sessionsEnded >= 2 && disabled.portalSessionsEnded == 1, "the app's session and the portal's: \(disabled)")
            #expect(disabled.lines.first?.hasPrefix("Disabled account \(ways.userID)") == true)

            // What she held ends at once: the whole session family, her access token within its lifetime, the portal.
            let refresh = try await broker.refresh(ways.refresh)
            #expect(refresh.status == 400 && refresh.string("error") == "invalid_grant", "\(refresh.body)")
            #expect(refresh.string("message_id") == "account_disabled")
            let me = try await broker.api(.GET, "/v1/me", token: ways.access)
            #expect(me.status == 401 && me.string("message_id") == "account_disabled", "\(me.body)")
            let portal = try await AdminPortalTests.get(broker, "/account", cookie: ways.portal)
            #expect(portal.status == 401, "her portal session is signed out")

            // Every way in says the same: "Your account is disabled."
            for provider in ["bankid", "vipps"] {
                let (app, _) = try await broker.providerLogin(AppLogin(), provider: provider, user: "kari")
                #expect(app.code == nil && app.error == "access_denied", "\(provider)")
                #expect(app.messageID == "account_disabled", "\(provider): \(app.fields)")
                #expect(app.fields["error_description"] == "Your account is disabled. Contact your coordinator.", "\(provider)")
            }
            let order = try await broker.startedOrder(AppLogin())
            _ = try await broker.bankIDApp(autoStartToken: order.autoStartToken, user: "kari", action: "approve")
            let collected = try await broker.collect(order.session)
            #expect(collected.string("status") == "failed" && collected.string("error") == "access_denied", "\(collected.body)")
            #expect(collected.string("messageId") == "account_disabled" && collected.string("code") == nil)

            let flow = try await PasswordLoginTests.form(AppLogin(), at: broker)
            let password = try await PasswordLoginTests.submit(flow, email: Self.kari.email, password: PasswordLoginTests.password, at: broker)
            #expect(password.status == 303, "\(password.body.prefix(300))")
            #expect(AppCallback(location: password.location).messageID == "account_disabled")
            let otherFlow = try await PasswordLoginTests.form(AppLogin(), at: broker)
            let wrongPassword = try await PasswordLoginTests.submit(otherFlow, email: Self.kari.email, password: "not her password", at: broker)
            #expect(wrongPassword.status == 401, "a wrong password says nothing about the account")

            let passkeyFlow = try await PasskeyTests.flow(broker, AppLogin().authorizeURL(method: "passkey"))
            let passkey = try await PasskeyTests.answer(broker, flow: passkeyFlow, holder: ways.holder, counter: 1)
            #expect(passkey.status == 303, "\(passkey.body.prefix(300))")
            #expect(AppCallback(location: passkey.location).messageID == "account_disabled")

            let unlock = try await broker.unlock(ways.device)
            #expect(unlock.status == 400 && unlock.string("error") == "invalid_grant", "\(unlock.body)")
            #expect(unlock.string("message_id") == "account_disabled")

            let deviceStepUp = try await broker.api(.POST, "/v1/step-up", token: ways.access, json: ["assertion": "x"])
            #expect(deviceStepUp.status == 401 && deviceStepUp.string("message_id") == "account_disabled", "\(deviceStepUp.body)")
            let passwordStepUp = try await broker.api(.POST, "/v1/step-up/password", token: ways.access, json: [
                "action": "expenses.submit", "password": PasswordLoginTests.password,
            ])
            #expect(passwordStepUp.status == 401 && passwordStepUp.string("message_id") == "account_disabled", "\(passwordStepUp.body)")
            let stepUpChallenge = try await broker.challenge(ways.device.id, purpose: .stepUp, action: "expenses.submit", token: ways.access)
            #expect(stepUpChallenge.status == 401)

            let (callback, page) = try await Self.portalSignIn(broker)
            #expect(AppCallback(location: callback).messageID == "account_disabled")
            #expect(page.status == 403 && page.body.contains("Kontoen din er sperret. Kontakt koordinatoren din."), "\(page.body.prefix(300))")

            // No session starts for her, whoever asks (migration 28): a login that read her account before she was disabled finds the door shut.
            let refused = try await broker.withStore { store in
                do {
                    _ = try await store.createSession(
                        userID: ways.userID, clientID: "no.portvakt.app", amr: ["pwd"], acr: "urn:portvakt:password", authTime: Date(),
                        idleLifetime: 600, absoluteLifetime: 600
                    )
                    return false
                } catch let error as StoreError {
                    return error.isDisabledAccount
                }
            }
            #expect(refused, "a session for a disabled account is refused by the database")

            // Her phone and passkey are kept, and it is all in the trail with the reason.
            let kept = try await broker.withStore { store in
                (try await store.activeDevices(userID: ways.userID).count, try await store.passkeys(userID: ways.userID).count)
            }
            #expect(kept.0 == 1 && kept.1 == 1)
            let events = try await broker.withStore { try await $0.auditEvents(subjectType: "user", subjectID: ways.userID) }
            let event = try #require(events.first { $0.action == AuditAction.userDisabled.rawValue })
            #expect(event.source == "operator" && event.details["reason"] == Self.reason && event.outcome == "success")
            let again = try await PortvaktApplication.disableUser(configuration: configuration, logger: logger, user: .id(ways.userID), reason: Self.reason)
            #expect(!again.changed && again.sessionsEnded == 0, "disabling twice changes nothing")

            // Enabled: she logs in again, and her phone and passkey work as before.
            let enabled = try await PortvaktApplication.enableUser(configuration: configuration, logger: logger, user: .id(ways.userID), reason: "Sak 2026-201: feil person")
            #expect(enabled.changed)
            let back = try await broker.tokens(provider: "vipps", user: "kari")
            #expect(back["access_token"] is String)
            let unlocked = try await broker.unlock(ways.device)
            #expect(unlocked.status == 200, "\(unlocked.body)")
            let passkeyAgain = try await PasskeyTests.answer(
                broker, flow: try await PasskeyTests.flow(broker, AppLogin().authorizeURL(method: "passkey")), holder: ways.holder, counter: 2
            )
            #expect(AppCallback(location: passkeyAgain.location).code != nil, "\(passkeyAgain.status) \(passkeyAgain.body.prefix(300))")
            let trail = try await broker.withStore { try await $0.auditEvents(subjectType: "user", subjectID: ways.userID) }
            #expect(trail.contains { $0.action == AuditAction.userEnabled.rawValue && $0.details["reason"] == "Sak 2026-201: feil person" })
            let chain = try await broker.withStore { try await $0.verifyAuditChain() }
            #expect(chain.isIntact, "\(String(describing: chain.firstBroken))")
        }
    }

    @Test(
        "Issue 45 item 4: user sign-out ends every session of Kari (the app's, the device unlock's, the portal's) at once, audited; she can log in and unlock again",
        arguments: TestDatabase.kinds
    )
    func signOutEverywhere(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let vipps = try await broker.tokens(provider: "vipps", user: "kari")
            let access = try #require(vipps["access_token"] as? String)
            let refresh = try #require(vipps["refresh_token"] as? String)
            let userID = try await broker.userID(token: access)
            let device = try await broker.registerDevice(TestDevice(), token: access)
            let unlocked = try await broker.unlock(device)
            let unlockRefresh = try #require(unlocked.string("refresh_token"), "\(unlocked.body)")
            let portal = try await PortalTests.signIn(broker, person: "kari", method: "vipps").cookie

            let report = try await PortvaktApplication.signOutUser(
                configuration: broker.configuration, logger: TestDatabase.logger, user: .id(userID.uppercased()), reason: nil
            )
            #expect(report.userID == userID && report.sessionsEnded >= 3 && report.portalSessionsEnded == 1, "\(report)")
            #expect(report.lines.first?.hasPrefix("Signed account \(userID) out everywhere") == true)

            for token in [refresh, unlockRefresh] {
                let refused = try await broker.refresh(token)
                #expect(refused.status == 400 && refused.string("error") == "invalid_grant", "\(refused.body)")
                #expect(refused.string("message_id") == "session_expired", "signed out, not disabled")
            }
            #expect(try await broker.api(.GET, "/v1/me", token: access).status == 401)
            #expect(try await AdminPortalTests.get(broker, "/account", cookie: portal).status == 401)
            let events = try await broker.withStore { try await $0.auditEvents(subjectType: "user", subjectID: userID) }
            let event = try #require(events.first { $0.action == AuditAction.userSignedOut.rawValue })
            #expect(event.source == "operator" && event.details["portal_sessions_ended"] == "1")

            // Not disabled: every way in works again.
            let again = try await broker.tokens(provider: "vipps", user: "kari")
            #expect(again["access_token"] is String)
            #expect(try await broker.unlock(device).status == 200)
            _ = try await PortalTests.signIn(broker, person: "kari", method: "vipps")
        }
    }

    @Test("Issue 45 item 4: the operator's refusals: a reason naming the person, holding a phone number or a personnummer, or on two lines and a malformed id (64), an account nobody has (65); enabling an enabled account changes nothing")
    func refusals() async throws {
        try await OperatorCommandTests.withConfiguration(.sqlite) { configuration in
            let logger = TestDatabase.logger
            let userID = try await PortvaktApplication.withStore(configuration: configuration, logger: logger) { store, _ in
                try await store.createUser(displayName: "Kari Nordmann", email: "kari@sandbox.portvakt.test").id
            }
            for reason in [
                "Kari Nordmann asked for it", "Mail from KARI@sandbox.portvakt.test", "", "two\nlines", String(repeating: "x", count: 201),
                "Her phone +47 900 00 001 was stolen", "Case of 150586-00048",
            ] {
                let refusal = await #expect(throws: OperatorError.self, "\(reason)") {
                    try await PortvaktApplication.disableUser(configuration: configuration, logger: logger, user: .id(userID), reason: reason)
                }
                #expect(refusal?.exitCode == 64, "\(reason)")
            }
            let malformed = await #expect(throws: OperatorError.self) {
                try await PortvaktApplication.disableUser(configuration: configuration, logger: logger, user: .id("kari"), reason: Self.reason)
            }
            #expect(malformed?.exitCode == 64)
            let unknown = await #expect(throws: OperatorError.self) {
                try await PortvaktApplication.signOutUser(configuration: configuration, logger: logger, user: .email("nobody@example.org"), reason: nil)
            }
            #expect(unknown?.exitCode == 65 && unknown?.description.contains("nobody@") == false, "the email is not repeated")
            let stranger = await #expect(throws: OperatorError.self) {
                try await PortvaktApplication.enableUser(configuration: configuration, logger: logger, user: .id(UUID().uuidString), reason: Self.reason)
            }
            #expect(stranger?.exitCode == 65)
            let enabled = try await PortvaktApplication.enableUser(configuration: configuration, logger: logger, user: .id(userID), reason: Self.reason)
            #expect(!enabled.changed && enabled.lines == ["Account \(userID) was not disabled; nothing changed."])
            let user = try await PortvaktApplication.withStore(configuration: configuration, logger: logger) { store, _ in try await store.user(id: userID) }
            #expect(user?.disabledAt == nil, "nothing refused was written")
        }
    }

    @Test(
        "Issue 45 item 5: Ingrid, NHF's administrator, suspends Magnus's NHF membership from the Members page after a step-up: his NHF role is gone at once, his HLF membership and session stay; without the step-up nothing changes; never her own membership, never another organisation's record",
        arguments: TestDatabase.kinds
    )
    func administratorSuspendsAMembership(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let magnus = try await broker.bankIDLogin("magnus")
            let magnusID = try await broker.userID(token: magnus.access)
            let slugs = { @Sendable () async throws -> [String] in
                try await broker.withStore { try await $0.organisationRoles(userID: magnusID).map(\.slug) }
            }
            #expect(try await slugs() == ["hlf", "nhf"])
            let record = try #require(try await broker.memberRecord("nhf", externalRef: "sandbox-magnus")).id
            let hlfRecord = try #require(try await broker.memberRecord("hlf", externalRef: "sandbox-magnus")).id
            let path = "/admin/nhf/members/\(record)"
            // Issue 58: her record carries her number, so her account is made by BankID; then the password.
            _ = try await broker.bankIDLogin("ingrid")
            _ = try await PortvaktApplication.setPassword(
                configuration: broker.configuration, logger: TestDatabase.logger, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password
            )

            // A password sign-in: the step-up is offered, and a suspension without it is refused.
            let cookie = try await AdminPortalTests.signInWithPassword(broker, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password)
            let page = try await AdminPortalTests.get(broker, path, cookie: cookie)
            #expect(page.status == 200 && page.body.contains("Suspender medlemskapet"), "\(page.body.prefix(300))")
            #expect(page.body.contains("step_up=1") && !page.body.contains("\(path)/suspend"), "no button before the step-up")
            let refused = try await AdminPortalTests.post(broker, path + "/suspend", cookie: cookie, form: [
                ("csrf", try PortalTests.csrf(in: page.body)), ("member", magnusID),
            ])
            #expect(refused.status == 401)
            #expect(try await slugs() == ["hlf", "nhf"], "nothing changed without the step-up")

            // After a confirmation with Vipps the button is there, naming the account the page showed.
            let confirmed = try await AdminDevicesTests.stepUp(broker, cookie: cookie, person: "ingrid", back: path)
            #expect(confirmed.status == 303 && confirmed.location == path)
            let renewed = try #require(confirmed.cookie("portvakt"))
            let ready = try await AdminPortalTests.get(broker, path, cookie: renewed)
            #expect(ready.body.contains(#"action="\#(path)/suspend""#) && ready.body.contains(#"name="member" value="\#(magnusID)""#))
            let csrf = try PortalTests.csrf(in: ready.body)

            // Someone else than the page showed, another organisation's record, her own membership: refused, nothing changed.
            let stale = try await AdminPortalTests.post(broker, path + "/suspend", cookie: renewed, form: [("csrf", csrf), ("member", UUID().uuidString.lowercased())])
            #expect(stale.status == 400)
            let elsewhere = try await AdminPortalTests.post(broker, "/admin/nhf/members/\(hlfRecord)/suspend", cookie: renewed, form: [("csrf", csrf), ("member", magnusID)])
            #expect(elsewhere.status == 404)
            let ingridID = try await broker.withStore { store in try #require(try await store.user(email: "ingrid@sandbox.portvakt.test")).id }
            let ingridRecord = try #require(try await broker.memberRecord("nhf", externalRef: "sandbox-ingrid")).id
            let own = try await AdminPortalTests.get(broker, "/admin/nhf/members/\(ingridRecord)", cookie: renewed)
            #expect(own.status == 200 && !own.body.contains("/suspend\""), "her own page offers no suspension")
            let ownRefused = try await AdminPortalTests.post(broker, "/admin/nhf/members/\(ingridRecord)/suspend", cookie: renewed, form: [("csrf", csrf), ("member", ingridID)])
            #expect(ownRefused.status == 403 && ownRefused.body.contains("ditt eget medlemskap"))
            #expect(try await slugs() == ["hlf", "nhf"])

            let suspended = try await AdminPortalTests.post(broker, path + "/suspend", cookie: renewed, form: [("csrf", csrf), ("member", magnusID)])
            #expect(suspended.status == 303 && suspended.location == path + "?done=suspended", "\(suspended.status) \(suspended.body.prefix(300))")
            #expect(try await slugs() == ["hlf"], "his NHF role is gone, his HLF membership stays")
            let after = try await AdminPortalTests.get(broker, try #require(suspended.location), cookie: renewed)
            #expect(after.status == 200 && after.body.contains("Medlemskapet er suspendert") && !after.body.contains("\(path)/suspend"))

            // His session stays, for HLF only; his token's roles are read from the database on each call.
            let me = try await broker.api(.GET, "/v1/me", token: magnus.access)
            #expect(me.status == 200, "\(me.body)")
            #expect((me.json["organisations"] as? [[String: Any]])?.compactMap { $0["slug"] as? String } == ["hlf"])
            let refreshed = try await broker.refresh(magnus.refresh)
            #expect(refreshed.status == 200, "\(refreshed.body)")
            let claims = LiveBroker.claims(try #require(refreshed.string("access_token")))
            #expect((claims["org"] as? [[String: Any]])?.compactMap { $0["slug"] as? String } == ["hlf"])

            let events = try await broker.withStore { try await $0.auditEvents(subjectType: "user", subjectID: magnusID) }
            let event = try #require(events.first { $0.action == AuditAction.membershipSuspended.rawValue })
            #expect(event.actorUserID == UUID(uuidString: ingridID) && event.source == "portal" && event.outcome == "membership_ended")
            #expect(event.details["record"] == record && event.details["left_with_none"] == "false")

            // The suspension lasts: his next login links the record no more; the page says so and offers to lift it.
            _ = try await broker.bankIDLogin("magnus")
            #expect(try await slugs() == ["hlf"], "a new login does not give the suspended record back")
            let suspendedPage = try await AdminPortalTests.get(broker, path, cookie: renewed)
            #expect(suspendedPage.body.contains("Suspendert") && suspendedPage.body.contains(#"action="\#(path)/suspension/lift""#))
            #expect(!suspendedPage.body.contains(#"action="\#(path)/invite""#), "no invitation while suspended")
            let invite = try await AdminPortalTests.post(broker, path + "/invite", cookie: renewed, form: [("csrf", csrf)])
            #expect(invite.status == 409 && invite.body.contains("Opphev suspensjonen"), "a password would give it back: \(invite.status)")

            // Lifting it (the same step-up): his NHF role is back at once, audited; a second lift is a 409.
            let lifted = try await AdminPortalTests.post(broker, path + "/suspension/lift", cookie: renewed, form: [("csrf", csrf)])
            #expect(lifted.status == 303 && lifted.location == path + "?done=lifted", "\(lifted.status) \(lifted.body.prefix(300))")
            #expect(try await slugs() == ["hlf", "nhf"])
            let liftEvents = try await broker.withStore { try await $0.auditEvents(subjectType: "member_record", subjectID: record) }
            let liftEvent = try #require(liftEvents.first { $0.action == AuditAction.membershipSuspensionLifted.rawValue })
            #expect(liftEvent.actorUserID == UUID(uuidString: ingridID) && liftEvent.outcome == "membership_restored" && liftEvent.details["restored_to"] == magnusID)
            let again = try await AdminPortalTests.post(broker, path + "/suspension/lift", cookie: renewed, form: [("csrf", csrf)])
            #expect(again.status == 409 && again.body.contains("ikke suspendert"))
        }
    }
}
