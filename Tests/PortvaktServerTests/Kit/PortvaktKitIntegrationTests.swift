import Foundation
import PortvaktCore
import PortvaktKit
import PortvaktModels
import PortvaktProtocol
import PortvaktStorage
import Testing

/// The SDK against a live Portvakt over HTTP: the app's side of login, refresh, unlock,
/// step-up and the offline queue, with the sandbox's providers as the browser's other end.
@Suite("PortvaktKit against a live server")
struct PortvaktKitIntegrationTests {
    /// The app's client as it ships: a proof key, so PAR and DPoP (issue 22).
    private static func client(_ broker: LiveBroker) throws -> PortvaktClient {
        PortvaktClient(
            configuration: PortvaktConfiguration(baseURL: try #require(URL(string: broker.baseURL))),
            proofKey: SoftwareProofKey(storage: MemorySecureStorage())
        )
    }

    /// The in-app browser's trip for an SDK authorization request: returns the code.
    private static func browserLogin(_ request: AuthorizationRequest, at broker: LiveBroker, user: String) async throws -> String {
        let start = try await broker.send(request.url.absoluteString)
        let atProvider = try await broker.send(try #require(start.location) + "&sandbox_user=\(user)&sandbox_action=approve")
        let back = try await broker.send(try #require(atProvider.location))
        let callback = AppCallback(location: back.location)
        #expect(callback.fields["state"] == request.state)
        return try #require(callback.code)
    }

    @Test("S1.1: the SDK's BankID login carries a PKCE S256 challenge of its own verifier: the code is refused with another verifier, and with the challenge sent as a plain verifier")
    func S1_1_theLoginCarriesAnS256Challenge() async throws {
        try await LiveBroker.run(.sqlite, settings: SenderConstraintTests.requiredPolicy, over: .socket) { broker in
            let client = try Self.client(broker)
            let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
            for wrong in [{ (verifier: String) in PKCE.challenge(for: verifier) }, { _ in PKCE.makeVerifier() }] {
                let request = try await client.authorizationRequest(.bankID)
                // RFC 7636 §4.1: 43 to 128 unreserved characters.
                #expect((43...128).contains(request.verifier.count) && request.verifier.unicodeScalars.allSatisfy(unreserved.contains))
                let code = try await Self.browserLogin(request, at: broker, user: "magnus")
                await #expect(throws: PortvaktError.self) { _ = try await client.exchange(code: code, verifier: wrong(request.verifier)) }
            }
            // Its own verifier opens the session (the server takes only S256: HostileInputTests).
            let request = try await client.authorizationRequest(.bankID)
            let code = try await Self.browserLogin(request, at: broker, user: "magnus")
            #expect(try await client.exchange(code: code, verifier: request.verifier).accessToken.isEmpty == false)
        }
    }

    @Test("S2.1: the SDK's Vipps login reaches Vipps with the scopes openid, phone (Vipps's `phoneNumber`) and nin")
    func S2_1_vippsIsAskedForPhoneAndNIN() async throws {
        try await LiveBroker.run(.sqlite, settings: SenderConstraintTests.requiredPolicy, over: .socket) { broker in
            let request = try await Self.client(broker).authorizationRequest(.vipps)
            let start = try await broker.send(request.url.absoluteString)
            let location = try #require(start.location)
            let upstream = try #require(URLComponents(string: location))
            #expect(upstream.path.contains("vipps"), "\(upstream.path)")
            let scope = try #require(upstream.queryItems?.first { $0.name == "scope" }?.value)
            #expect(Set(scope.split(separator: " ").map(String.init)).isSuperset(of: ["openid", "phoneNumber", "nin"]), "\(scope)")
        }
    }

    @Test("Login, refresh, device unlock, step-up and an offline queue replayed without duplicates, every token bound to the proof key (issue 22)")
    func wholeJourney() async throws {
        try await LiveBroker.run(.sqlite, settings: SenderConstraintTests.requiredPolicy, over: .socket) { broker in
            let client = try Self.client(broker)
            let storage = MemorySecureStorage()
            let tokens = TokenManager(storage: storage, refresher: client, margin: 0)

            // S1: BankID in the browser, code exchanged with the verifier.
            let request = try await client.authorizationRequest(.bankID)
            #expect(request.url.absoluteString.contains("request_uri=urn") && !request.url.absoluteString.contains("code_challenge"))
            let code = try await Self.browserLogin(request, at: broker, user: "magnus")
            let first = try await client.exchange(code: code, verifier: request.verifier)
            try await tokens.signedIn(first)
            let thumbprint = try await #require(client.dpop).thumbprint()
            func boundKey(_ token: String) -> String? { (LiveBroker.claims(token)["cnf"] as? [String: Any])?["jkt"] as? String }
            #expect(boundKey(first.accessToken) == thumbprint)

            // S8.2: refresh rotates the stored refresh token.
            let refreshed = try await tokens.refresh()
            #expect(refreshed.refreshToken != first.refreshToken)
            #expect(try await storage.read(.refreshToken) == Data(refreshed.refreshToken.utf8))

            // S4.2: enrol a device key (the registration needs the fresh login).
            let key = SoftwareDeviceKey()
            let publicKey = try await key.create(prompt: .enrolment(.en))
            let deviceID = try await client.registerDevice(publicKey, name: "Linux test", platform: "linux", biometry: .fingerprint, accessToken: refreshed.accessToken).id
            let unlocker = DeviceUnlocker(client: client, key: key, deviceID: deviceID, language: .en)

            // S5.2: unlock opens a new session with hwk + fpt.
            #expect(await unlocker.unlock(into: tokens) == .unlockSucceeded(offline: false))
            let access = try await tokens.accessToken()
            #expect((LiveBroker.claims(access)["amr"] as? [String]) == ["hwk", "fpt"])
            #expect(boundKey(access) == thumbprint, "the unlock's session is bound to the same proof key")
            struct Me: Decodable {
                struct User: Decodable { let name: String }
                let user: User
            }
            let me = try await client.get("v1/me", as: Me.self, accessToken: access)
            #expect(me.user.name == "Magnus Dahl")

            // S6.1/S6.2: a missed check and a changed enrolment come back as machine events.
            await key.script([.failed])
            #expect(await unlocker.unlock(into: tokens) == .unlockFailed(.failed))

            // S11: step-up gives an elevated token for the action.
            let elevated = try await unlocker.stepUp(.expensesSubmit, accessToken: access).token
            #expect(LiveBroker.claims(elevated)["step_up"] as? String == "expenses.submit")

            // S12: three activities queued offline; the first replay finds no network, the second sends them,
            // a third (as after a crash before the queue was saved) creates nothing new.
            let queue = OfflineQueue(storage: storage)
            let userID = try #require(LiveBroker.claims(access)["sub"] as? String)
            var writes: [QueuedWrite] = []
            for minutes in [15, 30, 45] {
                let body = try JSONSerialization.data(withJSONObject: [
                    "organisation": "nhf", "kind": "visit", "occurred_at": "2026-11-21T09:00:00Z", "duration_minutes": minutes,
                ])
                let write = QueuedWrite(path: "v1/activities", body: body, userID: userID, createdAt: Date())
                writes.append(write)
                try await queue.enqueue(write)
            }
            let offline = PortvaktClient(configuration: PortvaktConfiguration(baseURL: try #require(URL(string: "http://127.0.0.1:9"))))
            let noNetwork = try await queue.replay(as: userID) { await offline.send($0, accessToken: access) }
            #expect(noNetwork.stopReason == .unavailable && noNetwork.sent.isEmpty)
            let online = try await queue.replay(as: userID) { await client.send($0, accessToken: access) }
            #expect(online.sent == writes.map(\.id))
            for write in writes { try await queue.enqueue(write) }
            let again = try await queue.replay(as: userID) { await client.send($0, accessToken: access) }
            #expect(again.sent.count == 3, "the server answers the replays with the first results")
            #expect(try await broker.withStore { try await $0.activityCount(userID: userID) } == 3, "no duplicates on the server")

            // Logout: forgotten here, revoked at the server; the token no longer refreshes (S8.3's message follows).
            let held = try #require(try await tokens.logout())
            try await client.revoke(held)
            #expect(try await tokens.hasStoredSession() == false)
            await #expect(throws: TokenRefreshError.sessionExpired) { try await client.refresh(held) }
        }
    }

    /// A browser the app was killed behind: it remembers where it was sent and never comes back.
    private actor AbandonedBrowser: WebAuthenticator {
        private(set) var opened: URL?
        func authenticate(url: URL, callback: BrowserCallback) async throws -> URL {
            opened = url
            try await Task.sleep(for: .seconds(3600))
            throw WebAuthenticationError.cancelled
        }
    }

    private struct NoBankIDApp: URLOpener {
        func open(_ url: URL) async -> Bool { false }
    }

    @Test("S2.4: an app relaunched while the browser was open still finishes the login with the verifier and state it stored first; S16.3: the token answer says when the session and the device trust end")
    func S2_4_relaunchDuringTheBrowserStillCompletes() async throws {
        try await LiveBroker.run(.sqlite, settings: SenderConstraintTests.requiredPolicy, over: .socket) { broker in
            // What survives the relaunch: the secure storage (the proof key is in it too).
            let storage = MemorySecureStorage()
            func driver(_ browser: any WebAuthenticator) throws -> (AuthDriver, TokenManager) {
                let client = PortvaktClient(
                    configuration: PortvaktConfiguration(baseURL: try #require(URL(string: broker.baseURL))), proofKey: SoftwareProofKey(storage: storage)
                )
                let tokens = TokenManager(storage: storage, refresher: client, margin: 0)
                let services = AuthServices(
                    client: client, storage: storage, tokens: tokens, queue: OfflineQueue(storage: storage), deviceKey: SoftwareDeviceKey(),
                    browser: browser, opener: NoBankIDApp(), deviceName: "test", platform: "linux", language: .en
                )
                return (AuthDriver(context: AuthContext(biometry: .notAvailable, hasSession: false, deviceKeyEnrolled: false, online: true), services: services), tokens)
            }
            let abandoned = AbandonedBrowser()
            let (first, _) = try driver(abandoned)
            let killed = Task { await first.send(.methodChosen(.vipps)) }
            var opened: URL?
            for _ in 0..<1500 where opened == nil {
                opened = await abandoned.opened
                if opened == nil { try await Task.sleep(for: .milliseconds(10)) }
            }
            let url = try #require(opened)
            #expect(try await storage.readString(.pkceVerifier) != nil, "the verifier was stored before the browser opened")

            // The person finishes at Vipps; the answer reaches a new process.
            let start = try await broker.send(url.absoluteString)
            let atProvider = try await broker.send(try #require(start.location) + "&sandbox_user=kari&sandbox_action=approve")
            let back = try await broker.send(try #require(atProvider.location))
            let callback = try #require(back.location.flatMap(URL.init(string:)))
            let (relaunched, tokens) = try driver(NoBrowserAtAll())
            await relaunched.send(.launched(AuthContext(biometry: .notAvailable, hasSession: false, deviceKeyEnrolled: false, online: true)))
            // A URL at the app's scheme from anywhere else: its state is not the stored one, so nothing happens.
            var forged = try #require(URLComponents(url: callback, resolvingAgainstBaseURL: false))
            forged.queryItems = (forged.queryItems ?? []).map { $0.name == "state" ? URLQueryItem(name: "state", value: "someone-else") : $0 }
            await relaunched.resume(from: try #require(forged.url))
            #expect(await relaunched.machine.screen == .methodSelection(nil))
            #expect(try await storage.readString(.pkceVerifier) != nil, "a stray callback clears nothing")
            await relaunched.resume(from: callback)
            #expect(await relaunched.machine.screen == .home(nil))
            #expect(try await storage.readString(.lastLoginMethod) == "vipps", "remembered once it worked")
            // The same callback delivered again is not exchanged again (that would end the new session).
            await relaunched.resume(from: callback)
            #expect(await relaunched.machine.screen == .home(nil))
            #expect(try await tokens.refresh().refreshToken.isEmpty == false, "the session is alive")
            #expect(try await tokens.hasStoredSession())
            #expect(try await storage.readString(.pkceVerifier) == nil, "the verifier is gone once used")
            let day: TimeInterval = 86_400
            let sessionEnds = try #require(try await storage.readDate(.sessionEndsAt)).timeIntervalSinceNow
            let trustEnds = try #require(try await storage.readDate(.deviceTrustEndsAt)).timeIntervalSinceNow
            #expect(abs(sessionEnds - 90 * day) < 120 && abs(trustEnds - 90 * day) < 120, "both 90 days by default")
            killed.cancel()
        }
    }

    private struct NoBrowserAtAll: WebAuthenticator {
        func authenticate(url: URL, callback: BrowserCallback) async throws -> URL { throw WebAuthenticationError.failed }
    }

    @Test("S3: the BankID order flow through the SDK and the state machine, then the session")
    func bankIDOrder() async throws {
        try await LiveBroker.run(.sqlite, over: .socket) { broker in
            let client = try Self.client(broker)
            let storage = MemorySecureStorage()
            var machine = AuthMachine(context: AuthContext(biometry: .notAvailable, hasSession: false, deviceKeyEnrolled: false, online: true))
            _ = machine.handle(.launched(machine.context))
            #expect(machine.handle(.methodChosen(.bankIDOrder)) == [.startBankIDOrder])

            let verifier = PKCE.makeVerifier()
            let order = try await client.startBankIDOrder(verifier: verifier)
            #expect(order.expiresIn == 180)
            let effects = machine.handle(.orderStarted(launchURL: order.launchURL, at: Date()))
            #expect(effects.contains(.storeBankIDSessionRef))
            try await storage.write(Data(order.sessionID.utf8), for: .bankIDSessionRef)

            guard case .pending = try await client.collectBankIDOrder(sessionID: order.sessionID) else { Issue.record("not pending"); return }
            let token = try #require(URLComponents(url: order.launchURL, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "autostarttoken" }?.value)
            #expect(try await broker.bankIDApp(autoStartToken: token, user: "ola", action: "approve").status == 200)
            guard case .complete(let code) = try await client.collectBankIDOrder(sessionID: order.sessionID) else { Issue.record("not complete"); return }
            #expect(machine.handle(.orderCompleted) == [.stopPollingBankIDOrder, .clearBankIDSessionRef, .exchangeCode])
            try await storage.delete(.bankIDSessionRef)

            let tokens = try await client.exchange(code: code, verifier: verifier)
            _ = machine.handle(.loginCompleted)
            #expect(machine.screen == .home(nil), "no biometrics on this device: straight home")
            #expect((LiveBroker.claims(tokens.accessToken)["amr"] as? [String]) == ["BID"])
            #expect(try await storage.read(.bankIDSessionRef) == nil)

            // A second order, cancelled: the server cancels it and the app clears the reference.
            let second = try await client.startBankIDOrder(verifier: PKCE.makeVerifier())
            try await client.cancelBankIDOrder(sessionID: second.sessionID)
            #expect(try await client.collectBankIDOrder(sessionID: second.sessionID) == .failed(.bankIDCancelled))
        }
    }

    @Test("S3.2: the BankID app switches back to the app: the launch link carries the configured return URL")
    func bankIDReturnURL() async throws {
        try await LiveBroker.run(.sqlite, over: .socket) { broker in
            let base = try #require(URL(string: broker.baseURL))
            func client(returnURL: String?) -> PortvaktClient {
                PortvaktClient(
                    configuration: PortvaktConfiguration(baseURL: base, bankIDReturnURL: returnURL), proofKey: SoftwareProofKey(storage: MemorySecureStorage())
                )
            }
            let order = try await client(returnURL: "no.portvakt.app:/bankid/return").startBankIDOrder(verifier: PKCE.makeVerifier())
            let link = try #require(URLComponents(url: order.launchURL, resolvingAgainstBaseURL: false))
            #expect(link.scheme == "bankid")
            #expect(link.queryItems?.first { $0.name == "redirect" }?.value == "no.portvakt.app:/bankid/return")
            #expect(order.launchURL.absoluteString.contains("redirect=no.portvakt.app%3A%2Fbankid%2Freturn"), "percent-encoded in the link")

            // Without one, the BankID app is told to return nowhere.
            let plain = try await client(returnURL: nil).startBankIDOrder(verifier: PKCE.makeVerifier())
            #expect(plain.launchURL.absoluteString.hasSuffix("&redirect=null"))

            // A return URL the client may not use is refused before any order starts.
            do {
                _ = try await client(returnURL: "https://attacker.example/bankid").startBankIDOrder(verifier: PKCE.makeVerifier())
                Issue.record("a return URL off the allow-list started an order")
            } catch let error as PortvaktError {
                #expect(error.status == 400 && error.error == "invalid_request")
            }
        }
    }

    /// Browsers the test answers one by one, as the person (or the system) would.
    private actor HeldBrowsers: WebAuthenticator {
        private var waiting: [(url: URL, answer: CheckedContinuation<URL, any Error>)] = []
        var count: Int { waiting.count }
        func url(_ index: Int) -> URL { waiting[index].url }

        func authenticate(url: URL, callback: BrowserCallback) async throws -> URL {
            try await withCheckedThrowingContinuation { waiting.append((url, $0)) }
        }

        func answer(_ index: Int, with result: Result<URL, any Error>) { waiting[index].answer.resume(with: result) }
    }

    @Test("S10.1, S2.4: a double tap opens a second login; the first one's late cancel neither closes it nor clears its verifier, and the second completes")
    func S10_1_theNewestAttemptWins() async throws {
        try await LiveBroker.run(.sqlite, over: .socket) { broker in
            let storage = MemorySecureStorage()
            let client = PortvaktClient(
                configuration: PortvaktConfiguration(baseURL: try #require(URL(string: broker.baseURL))), proofKey: SoftwareProofKey(storage: storage)
            )
            let browsers = HeldBrowsers()
            let services = AuthServices(
                client: client, storage: storage, tokens: TokenManager(storage: storage, refresher: client, margin: 0), queue: OfflineQueue(storage: storage),
                deviceKey: SoftwareDeviceKey(), browser: browsers, opener: NoBankIDApp(), deviceName: "test", platform: "linux", language: .en
            )
            let driver = AuthDriver(context: AuthContext(biometry: .notAvailable, hasSession: false, deviceKeyEnrolled: false, online: true), services: services)
            await driver.send(.launched(AuthContext(biometry: .notAvailable, hasSession: false, deviceKeyEnrolled: false, online: true)))
            let first = await driver.submit(.methodChosen(.vipps))
            for _ in 0..<1500 where await browsers.count < 1 { try await Task.sleep(for: .milliseconds(10)) }
            let second = await driver.submit(.methodChosen(.vipps))
            for _ in 0..<1500 where await browsers.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(await browsers.count == 2)
            let verifier = try await storage.readString(.pkceVerifier)

            // The system closes the first browser when the second opens: its cancel belongs to an abandoned attempt.
            await browsers.answer(0, with: .failure(WebAuthenticationError.cancelled))
            await first.value
            #expect(await driver.machine.screen == .browser(.vipps))
            #expect(try await storage.readString(.pkceVerifier) == verifier, "the second login's verifier stays")

            // The person finishes the second at Vipps.
            let start = try await broker.send(await browsers.url(1).absoluteString)
            let atProvider = try await broker.send(try #require(start.location) + "&sandbox_user=kari&sandbox_action=approve")
            let back = try await broker.send(try #require(atProvider.location))
            await browsers.answer(1, with: .success(try #require(back.location.flatMap(URL.init(string:)))))
            await second.value
            #expect(await driver.machine.screen == .home(nil))
            #expect(try await storage.readString(.refreshToken) != nil, "signed in")
        }
    }
}
