import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// Issue 44 item 2: removing a passkey (what the "copied passkey" message tells people to do)
/// ends every session it opened, as removing a phone ends those it unlocked.
@Suite("Removing a passkey ends its sessions (S18.1)")
struct PasskeyRemovalTests {
    @Test("S18.1, issue 44 item 2: removing a passkey refuses the refresh token of the app session it opened and signs out the portal sessions it signed in or confirmed; a BankID session stays", arguments: TestDatabase.kinds)
    func removalEndsItsSessions(kind: DatabaseKind) async throws {
        try await PasskeyTests.run(kind) { broker in
            let bankID = try await PortalTests.signIn(broker, person: "ingrid", method: "bankid").cookie
            let holder = try #require(try await PasskeyTests.register(broker, cookie: bankID, name: "Jobb-PC").holder)
            let ingridID = String(decoding: holder.userHandle, as: UTF8.self)

            // The app's session, opened by the passkey, with its refresh token; and one opened by BankID.
            let login = AppLogin()
            let answered = try await PasskeyTests.answer(broker, flow: try await PasskeyTests.flow(broker, login.authorizeURL(method: "passkey")), holder: holder, counter: 1)
            let code = try #require(AppCallback(location: try #require(answered.location, "\(answered.status) \(answered.body.prefix(300))")).code)
            let appTokens = try await login.redeem(code, at: broker)
            let appRefresh = try #require(appTokens.string("refresh_token"))
            let appAccess = try #require(appTokens.string("access_token"))
            let appSession = try #require(LiveBroker.claims(appAccess)["sid"] as? String)
            let bankIDRefresh = try #require(try await broker.tokens(provider: "bankid", user: "ingrid")["refresh_token"] as? String)

            // A browser signed in with the passkey, and one signed in with a password that the passkey confirmed.
            let signedIn = try PasskeyTests.cookie(try await PasskeyTests.portalSignIn(broker, holder: holder, counter: 2))
            _ = try await PortvaktApplication.setPassword(
                configuration: broker.configuration, logger: TestDatabase.logger, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password
            )
            let password = try await AdminPortalTests.signInWithPassword(broker, email: "ingrid@sandbox.portvakt.test", password: PasswordLoginTests.password)
            let confirmed = try await PasskeyTests.portalSignIn(broker, holder: holder, counter: 3, stepUp: "/account", existing: password)
            #expect(confirmed.status == 303, "\(confirmed.body.prefix(300))")
            let steppedUp = try PasskeyTests.cookie(confirmed)
            for cookie in [signedIn, steppedUp] {
                #expect(try await broker.send("/account", headers: [("Cookie", cookie)]).status == 200)
            }

            let passkeyID = try #require(try await broker.withStore { store in try await store.passkeys(userID: ingridID) }.first?.id)
            let page = try await broker.send("/account", headers: [("Cookie", bankID)])
            let removed = try await broker.send(
                "/account/passkeys/\(passkeyID)/remove", method: .POST, form: [("csrf", try PortalTests.csrf(in: page.body))], headers: [("Cookie", bankID)]
            )
            #expect(removed.location == "/account?done=passkey_removed")

            let refused = try await broker.refresh(appRefresh)
            #expect(refused.status == 400 && refused.string("error") == "invalid_grant", "\(refused.body)")
            for cookie in [signedIn, steppedUp] {
                #expect(try await broker.send("/account", headers: [("Cookie", cookie)]).status == 401, "the portal session rested on the passkey's session")
            }
            #expect(try await broker.refresh(bankIDRefresh).status == 200, "a session BankID opened stays")
            #expect(try await broker.send("/account", headers: [("Cookie", bankID)]).status == 200)
            let (ended, active, events) = try await broker.withStore { store in
                (
                    try await store.session(id: appSession), try await store.activeSessions(userID: ingridID),
                    try await store.auditEvents(actorUserID: ingridID, actions: ["passkey.removed"])
                )
            }
            #expect(ended?.passkeyId == passkeyID && ended?.revokedReason == "passkey_removed")
            #expect(!active.isEmpty && !active.contains { $0.passkeyId == passkeyID })
            #expect(events.count == 1 && events.first?.subjectID == passkeyID)

            // A sign-in whose assertion was checked before the removal opens no session after it.
            await #expect(throws: StoreError.notFound("passkeys")) {
                try await broker.withStore { store in try await Self.recordLogin(by: passkeyID, of: ingridID, in: store) }
            }
        }
    }

    @Test("S18.1, issue 44 item 2: removing the passkey this browser signed in with signs this browser out, saying why", arguments: TestDatabase.kinds)
    func removingOwnPasskeySignsOut(kind: DatabaseKind) async throws {
        try await PasskeyTests.run(kind) { broker in
            let vipps = try await PortalTests.signIn(broker, person: "kari", method: "vipps").cookie
            let holder = try #require(try await PasskeyTests.register(broker, cookie: vipps).holder)
            let kariID = String(decoding: holder.userHandle, as: UTF8.self)
            let cookie = try PasskeyTests.cookie(try await PasskeyTests.portalSignIn(broker, holder: holder, counter: 1))
            let passkeyID = try #require(try await broker.withStore { store in try await store.passkeys(userID: kariID) }.first?.id)
            let page = try await broker.send("/account", headers: [("Cookie", cookie)])
            let removed = try await broker.send(
                "/account/passkeys/\(passkeyID)/remove", method: .POST, form: [("csrf", try PortalTests.csrf(in: page.body))], headers: [("Cookie", cookie)]
            )
            #expect(removed.status == 303 && removed.location == "/?signed_out=passkey_removed")
            #expect(removed.setCookie("portvakt")?.contains("Max-Age=0") == true, "the cookie is cleared")
            let start = try await broker.send(try #require(removed.location))
            #expect(start.body.contains("Passnøkkelen er fjernet"))
            #expect(try await broker.send("/account", headers: [("Cookie", cookie)]).status == 401)
            #expect(try await broker.send("/account", headers: [("Cookie", vipps)]).status == 200, "the Vipps sign-in stays")
        }
    }

    /// What the end of a passkey sign-in writes, for a passkey that is gone by then.
    private static func recordLogin(by passkeyID: String, of userID: String, in store: PortvaktStore) async throws {
        let now = Date()
        let session = Session.starting(
            userID: userID, clientID: "no.portvakt.app", passkeyID: passkeyID, amr: Authentication.passkeyAMR(synced: false),
            acr: Authentication.passkeyACR, authTime: now, idleLifetime: 3600, absoluteLifetime: 86_400, now: now
        )
        let code = AuthorizationCode(
            codeHash: Data((0..<32).map { _ in UInt8.random(in: 0...255) }), sessionID: session.id, clientID: session.clientId,
            redirectURI: "no.portvakt.app:/oauth/callback", codeChallenge: "challenge", scope: "openid", nonce: nil, createdAt: now,
            expiresAt: now.addingTimeInterval(60)
        )
        let audit = AuditEvent(occurredAt: now, action: .loginSucceeded, outcome: "success", actorUserID: UUID(uuidString: userID), source: "passkey-login")
        try await store.recordLogin(session: session, code: code, eidLogin: false, memberSync: MemberSyncWrites(), audit: audit, now: now)
    }
}
