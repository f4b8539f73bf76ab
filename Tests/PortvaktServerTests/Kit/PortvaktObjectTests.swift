import Foundation
import PortvaktKit
import PortvaktProtocol
import Synchronization
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one object an app holds (issue 47 item 6), against a live Portvakt over HTTP with the
/// sandbox's BankID as the browser's other end.
@Suite("Portvakt, the app's one object, against a live server")
struct PortvaktObjectTests {
    /// The in-app browser: follows the sandbox's hops and records the callback it was given.
    final class SandboxBrowser: WebAuthenticator, Sendable {
        let broker: LiveBroker
        let callbacks = Mutex<[BrowserCallback]>([])

        init(_ broker: LiveBroker) { self.broker = broker }

        func authenticate(url: URL, callback: BrowserCallback) async throws -> URL {
            callbacks.withLock { $0.append(callback) }
            let start = try await broker.send(url.absoluteString)
            let atProvider = try await broker.send(try #require(start.location) + "&sandbox_user=magnus&sandbox_action=approve")
            let back = try await broker.send(try #require(atProvider.location))
            let location = try #require(back.location)
            return try #require(URL(string: location))
        }
    }

    struct NoBankIDApp: URLOpener {
        func open(_ url: URL) async -> Bool { false }
    }

    @Test("S4, S11, S7: one object from a fresh install to logout: the browser is given the scheme alone, the state streams, any method is signed, step-up returns the server's expiry")
    func wholeJourney() async throws {
        try await LiveBroker.run(.sqlite, over: .socket) { broker in
            let storage = MemorySecureStorage()
            // Left by an earlier installation: a fresh install must not resume it.
            try await storage.write("stale-refresh-token", for: .refreshToken)
            try await storage.write("stale-device", for: .deviceID)
            let installed = Mutex(false)
            let browser = SandboxBrowser(broker)
            // The face at the sensor: recognised until the test says otherwise.
            let faceRecognised = Mutex(true)
            let deviceKey = SoftwareDeviceKey(storage: storage) { _ in faceRecognised.withLock { $0 } ? nil : .cancelled }
            let platform = PortvaktPlatform(
                storage: storage, deviceKey: deviceKey, proofKey: StoredProofKey(storage: storage), browser: browser,
                opener: NoBankIDApp(), biometry: { .available(.face) },
                firstRun: InstallMarker(isFirstRun: { !installed.withLock { $0 } }, markInstalled: { installed.withLock { $0 = true } }),
                deviceName: "test phone", platform: "ios"
            )
            let portvakt = Portvakt(
                configuration: PortvaktConfiguration(baseURL: try #require(URL(string: broker.baseURL))), platform: platform, language: .en
            )
            let seen = Mutex<[AuthScreen]>([])
            let listening = Task { for await machine in portvakt.states() { seen.withLock { $0.append(machine.screen) } } }

            await portvakt.start()
            let staleToken = try await storage.read(.refreshToken)
            let staleDevice = try await storage.read(.deviceID)
            #expect(staleToken == nil && staleDevice == nil, "the earlier installation's session is gone")
            #expect(installed.withLock { $0 })
            #expect(await portvakt.machine.screen == .methodSelection(nil))

            // S1.1: the browser gets the redirect URI's scheme alone (ASWebAuthenticationSession throws on ":" and "/").
            await portvakt.login(with: .bankID)
            #expect(browser.callbacks.withLock { $0 } == [.customScheme("no.portvakt.app")])
            #expect(await portvakt.machine.screen == .enrolmentOffer(.face))
            await portvakt.send(.enrolmentAccepted)
            #expect(await portvakt.machine.screen == .home(.faceIDEnabled))

            // Any method, signed: a POST with a body and a GET, both with DPoP.
            let base = try #require(URL(string: broker.baseURL))
            var post = URLRequest(url: base.appendingPathComponent("v1/activities"))
            post.httpMethod = "POST"
            post.setValue("application/json", forHTTPHeaderField: "Content-Type")
            post.setValue(UUID().uuidString, forHTTPHeaderField: "Idempotency-Key")
            post.httpBody = try JSONSerialization.data(withJSONObject: [
                "organisation": "nhf", "kind": "visit", "occurred_at": "2026-11-21T09:00:00Z", "duration_minutes": 30,
            ])
            let (_, created) = try await portvakt.authorizedRequest(post)
            #expect(created.statusCode == 201)
            let (body, me) = try await portvakt.authorizedRequest(URLRequest(url: base.appendingPathComponent("v1/me")))
            #expect(me.statusCode == 200)
            #expect(String(decoding: body, as: UTF8.self).contains("magnus@sandbox.portvakt.test"))
            let account = try await portvakt.me()
            #expect(account.user.email == "magnus@sandbox.portvakt.test" && account.brand == nil, "the development app's client names no brand")

            // S11: step-up with the device key; the token's expiry is the server's, not a constant.
            let before = Date()
            let elevated = try await portvakt.stepUp(for: .expensesSubmit)
            #expect(LiveBroker.claims(elevated.token)["step_up"] as? String == "expenses.submit")
            let exp = try #require(LiveBroker.claims(elevated.token)["exp"] as? Double)
            #expect(abs(elevated.expiresAt.timeIntervalSince1970 - exp) < 5)
            #expect(elevated.expiresAt > before)

            // A redirect is answered, not followed: the token and its proof were for that URL alone.
            let login = try await portvakt.client.authorizationRequest(.vipps, language: .en)
            let (_, redirect) = try await portvakt.authorizedRequest(URLRequest(url: login.url))
            #expect((300..<400).contains(redirect.statusCode), "got \(redirect.statusCode)")
            #expect(redirect.value(forHTTPHeaderField: "Location") != nil)

            // S16.1: back after the lock time, the session waits for the biometric check: no request, no step-up.
            faceRecognised.withLock { $0 = false }
            await portvakt.send(.enteredBackground(ContinuousClock.now - .seconds(600)))
            await portvakt.returnedToForeground()
            #expect(await portvakt.machine.screen == .unlock(nil), "the prompt was cancelled")
            #expect(await portvakt.machine.isUnlocked == false)
            await #expect(throws: PortvaktAccessError.locked) { _ = try await portvakt.authorizedRequest(URLRequest(url: base.appendingPathComponent("v1/me"))) }
            await #expect(throws: PortvaktAccessError.locked) { _ = try await portvakt.stepUp(for: .contactsRead) }
            await #expect(throws: PortvaktAccessError.locked) { _ = try await portvakt.me() }
            faceRecognised.withLock { $0 = true }
            await portvakt.unlock()
            #expect(await portvakt.machine.isUnlocked)

            // Logout: the session ends at the server too. What a copy of the phone's storage taken
            // before it holds (the refresh token, the proof key) is refused there afterwards.
            let copy = try await StorageCopy(of: storage)
            await portvakt.logout()
            #expect(await portvakt.machine.screen == .methodSelection(nil))
            #expect(await portvakt.lastLogoutReachedServer)
            #expect(try await storage.read(.proofKey) == nil, "the proof key goes with the last session")
            await #expect(throws: TokenRefreshError.sessionExpired) { _ = try await copy.refresh(at: base) }
            await #expect(throws: PortvaktAccessError.locked) { _ = try await portvakt.authorizedRequest(URLRequest(url: base.appendingPathComponent("v1/me"))) }

            listening.cancel()
            let screens = seen.withLock { $0 }
            #expect(screens.contains(.browser(.bankID)) && screens.contains(.home(.faceIDEnabled)), "the stream saw the journey")
        }
    }

    @Test("A logout without a network ends the session on the phone, says the server has not heard, and revokes it at the next chance")
    func logoutWithoutNetwork() async throws {
        try await LiveBroker.run(.sqlite, over: .socket) { broker in
            let storage = MemorySecureStorage()
            let base = try #require(URL(string: broker.baseURL))
            let online = Self.portvakt(at: base, storage: storage, browser: SandboxBrowser(broker))
            await online.start()
            await online.login(with: .bankID)
            await online.send(.enrolmentDeclined)
            guard case .home = await online.machine.screen else { Issue.record("no home after the login"); return }
            let copy = try await StorageCopy(of: storage)

            // The same phone on a train: nothing listens at its server's address.
            let offline = Self.portvakt(at: try #require(URL(string: "http://127.0.0.1:9")), storage: storage, browser: SandboxBrowser(broker))
            await offline.logout()
            #expect(await offline.machine.screen == .methodSelection(nil))
            #expect(await offline.lastLogoutReachedServer == false)
            #expect(try await storage.read(.refreshToken) == nil, "the session has ended on the phone")
            #expect(try await storage.read(.proofKey) != nil, "the proof key stays: it signs the waiting revocation")
            #expect(await offline.sendPendingRevocations() == 1, "still no network: it waits")
            // Until it is sent the server still knows the session (so the member is told).
            let session = try await copy.refresh(at: base).refreshToken

            // Back online, at the next launch: sent, and only then the proof key goes.
            let back = Self.portvakt(at: base, storage: storage, browser: SandboxBrowser(broker))
            #expect(await back.sendPendingRevocations() == 0)
            #expect(try await storage.read(.proofKey) == nil)
            await #expect(throws: TokenRefreshError.sessionExpired) { _ = try await copy.refresh(session, at: base) }

            // Sent while the next login is under way (its verifier stored, the browser open): the
            // key its pushed request is bound to stays.
            await back.login(with: .bankID)
            await offline.logout()
            try await storage.write("the next login's verifier", for: .pkceVerifier)
            #expect(await back.sendPendingRevocations() == 0)
            #expect(try await storage.read(.proofKey) != nil, "the login under way keeps its proof key")
        }
    }

    static func portvakt(at base: URL, storage: MemorySecureStorage, browser: SandboxBrowser) -> Portvakt {
        let platform = PortvaktPlatform(
            storage: storage, deviceKey: SoftwareDeviceKey(storage: storage) { _ in nil }, proofKey: StoredProofKey(storage: storage),
            browser: browser, opener: NoBankIDApp(), biometry: { .available(.face) },
            firstRun: InstallMarker(isFirstRun: { false }, markInstalled: {}), deviceName: "test phone", platform: "ios"
        )
        return Portvakt(configuration: PortvaktConfiguration(baseURL: base), platform: platform, language: .en)
    }

    /// What an attacker who copied the phone's storage holds: the refresh token and the proof key.
    struct StorageCopy {
        let refreshToken: String
        let keys = MemorySecureStorage()

        init(of storage: MemorySecureStorage) async throws {
            refreshToken = try #require(try await storage.readString(.refreshToken))
            try await keys.write(try #require(try await storage.read(.proofKey)), for: .proofKey)
        }

        /// Refreshes `token` (the copied one by default) with the copied proof key.
        func refresh(_ token: String? = nil, at base: URL) async throws -> TokenSet {
            let client = PortvaktClient(configuration: PortvaktConfiguration(baseURL: base), proofKey: StoredProofKey(storage: keys))
            return try await client.refresh(token ?? refreshToken)
        }
    }
}
