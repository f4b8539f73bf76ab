import Foundation
@testable import PortvaktKit
import PortvaktProtocol
import Testing

private typealias Endpoint = FakePortvakt.Endpoint

/// A way a browser login ends without a session, and what the person is shown.
struct BrowserEnding: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let method: LoginMethod
    var pushed: FakePortvakt.Reply = .pushed
    let browser: ScriptedBrowser.Outcome
    var token: FakePortvakt.Reply = .offline
    let shown: UserMessage
}

/// A biometric check or a server that refuses a new device key.
struct EnrolmentRefusal: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let checks: [BiometricFailure?]
    let registration: FakePortvakt.Reply
    let shown: UserMessage
}

/// ``AuthDriver`` carrying out the login, unlock, session and enrolment effects against a
/// server in the test process: what each answer shows, and what it keeps or forgets.
@Suite("The login journey, driven")
struct AuthDriverTests {
    static let browserEndings: [BrowserEnding] = [
        BrowserEnding(testDescription: "S1.4 cancelled on BankID's page", method: .bankID, browser: .answers(["message_id": "bankid_cancelled"]), shown: .bankIDCancelled),
        BrowserEnding(testDescription: "S1.5 BankID down", method: .bankID, browser: .answers(["message_id": "bankid_unavailable"]), shown: .bankIDUnavailable),
        BrowserEnding(testDescription: "S10.2 neither a code nor a message", method: .bankID, browser: .answers([:]), shown: .loginFailed),
        BrowserEnding(testDescription: "S1.4 the browser closed", method: .vipps, browser: .fails(WebAuthenticationError.cancelled), shown: .vippsCancelled),
        BrowserEnding(
            testDescription: "S14.2 the login page refused", method: .password, browser: .fails(WebAuthenticationError.refused(.wrongEmailOrPassword)),
            shown: .wrongEmailOrPassword
        ),
        BrowserEnding(
            testDescription: "S10.1 Portvakt refused the pushed request", method: .vipps,
            pushed: .refused(400, error: "invalid_request", message: .invalidLoginRequest), browser: .answers([:]), shown: .invalidLoginRequest
        ),
        BrowserEnding(testDescription: "S1.5 no network on the way to Vipps", method: .vipps, browser: .fails(URLError(.notConnectedToInternet)), shown: .vippsUnavailable),
        BrowserEnding(
            testDescription: "S2.4 the code refused", method: .vipps, browser: .answers(["code": "code-1"]),
            token: .refused(400, error: "invalid_grant", message: .accountDisabled), shown: .accountDisabled
        ),
        BrowserEnding(testDescription: "S2.4 no answer to the exchange", method: .vipps, browser: .answers(["code": "code-1"]), token: .offline, shown: .loginFailed),
    ]

    @Test("S1.4, S1.5, S2.4, S10.1: each way a browser login ends without a session shows its own message on the method selection, and the verifier goes", arguments: AuthDriverTests.browserEndings)
    func browserLoginEnds(_ ending: BrowserEnding) async throws {
        let phone = TestPhone(browser: ending.browser)
        phone.server.on(Endpoint.pushedRequest, ending.pushed)
        phone.server.on(Endpoint.token, ending.token)
        await phone.launch()
        await phone.driver.send(.methodChosen(ending.method))

        #expect(await phone.screen == .methodSelection(ending.shown))
        #expect(try await phone.storage.read(.pkceVerifier) == nil)
        #expect(try await phone.storage.read(.refreshToken) == nil)
    }

    @Test("S1.1: an answer naming another issuer, or none once discovery said answers name it, is refused before its code is exchanged (RFC 9207)")
    func answerOfAnotherIssuerIsRefused() async throws {
        let mixedUp = TestPhone(browser: .answers(["code": "code-1", "iss": "https://login.another.example"]))
        mixedUp.server.on(Endpoint.pushedRequest, .pushed)
        mixedUp.server.on(Endpoint.token, .tokens(for: "kari", refresh: "refresh-1"))
        await mixedUp.launch()
        await mixedUp.driver.send(.methodChosen(.bankID))
        #expect(await mixedUp.screen == .methodSelection(.loginFailed))
        #expect(mixedUp.server.requests(to: Endpoint.token).isEmpty, "its code is never sent")

        let phone = TestPhone()
        phone.server.on("/.well-known/openid-configuration", .status(200, Data(#"{"authorization_response_iss_parameter_supported":true}"#.utf8)))
        phone.server.on(Endpoint.token, .tokens(for: "kari", refresh: "refresh-1"))
        await phone.launch()
        await phone.driver.learnOfferedMethods()
        try await phone.storage.write("state-1", for: .pkceState)
        try await phone.storage.write("verifier-1", for: .pkceVerifier)
        await phone.driver.resume(from: try #require(URL(string: "no.portvakt.app:/oauth/callback?state=state-1&code=code-1")))
        #expect(phone.server.requests(to: Endpoint.token).isEmpty, "without iss, as a foreign state: ignored")
        #expect(try await phone.storage.readString(.pkceState) == "state-1")

        let own = try #require(URL(string: "no.portvakt.app:/oauth/callback?state=state-1&code=code-1&iss=\(phone.server.baseURL.absoluteString)"))
        await phone.driver.resume(from: own)
        #expect(phone.server.requests(to: Endpoint.token).map { $0.form["code"] } == ["code-1"], "its own issuer's answer is taken")
    }

    @Test("S2.4, S1.4: an app relaunched while the browser was open is handed its answer: a cancel stays quiet, an error is said, and each answer is taken once")
    func relaunchedAppTakesTheBrowsersAnswer() async throws {
        let phone = TestPhone()
        await phone.launch()
        try await phone.storage.write("state-1", for: .pkceState)
        try await phone.storage.write("verifier-1", for: .pkceVerifier)
        await phone.driver.resume(from: try #require(URL(string: "no.portvakt.app:/oauth/callback?state=state-1&message_id=bankid_cancelled")))
        #expect(await phone.screen == .methodSelection(nil), "a cancel says nothing")
        #expect(try await phone.storage.read(.pkceState) == nil, "the state is used up")

        try await phone.storage.write("state-2", for: .pkceState)
        await phone.driver.resume(from: try #require(URL(string: "no.portvakt.app:/oauth/callback?state=state-2&message_id=vipps_unavailable")))
        #expect(await phone.screen == .methodSelection(.vippsUnavailable))
        #expect(try await phone.storage.read(.pkceVerifier) == nil, "the verifier is cleared after the failure")

        await phone.driver.resume(from: try #require(URL(string: "no.portvakt.app:/oauth/callback?state=state-2&message_id=bankid_unavailable")))
        #expect(await phone.screen == .methodSelection(.vippsUnavailable), "the same answer a second time changes nothing")
    }

    /// A phone with a session and a device key whose id is stored; its biometric checks answer `checks`.
    private static func enrolledPhone(
        checks: [BiometricFailure?] = [], deadlines: (challenge: TimeInterval, unlock: TimeInterval)? = nil,
        biometrics: SoftwareDeviceKey.Biometrics? = nil
    ) async throws -> TestPhone {
        let key = SoftwareDeviceKey(biometrics: biometrics)
        _ = try await key.create(prompt: .enrolment(.en))
        await key.script(checks)
        let phone = TestPhone(biometry: .available(.face), session: true, enrolled: true, key: key, deadlines: deadlines)
        try await phone.storage.write("device-1", for: .deviceID)
        try await phone.storage.write("refresh-0", for: .refreshToken)
        phone.server.on(Endpoint.challenges("device-1"), .challenge(for: "device-1"))
        phone.server.on(Endpoint.device("device-1"), .status(204, Data()))
        phone.server.on(Endpoint.token, .tokens(for: "kari", refresh: "refresh-1"))
        return phone
    }

    @Test("S29.3: on a weak network the unlock waits for the challenge, or for its session after the check, only until its deadline, then opens the cached session offline", .timeLimit(.minutes(1)), arguments: ["challenge", "session"])
    func weakNetworkOpensOffline(_ stalled: String) async throws {
        let prompts = Locked(0)
        let phone = try await Self.enrolledPhone(deadlines: (challenge: 0.2, unlock: 0.2)) { _ in
            prompts.withLock { $0 += 1 }
            return nil
        }
        // The stalled request is never answered, as on a network that lost it.
        let (never, _) = AsyncStream<Void>.makeStream()
        phone.server.before(stalled == "challenge" ? Endpoint.challenges("device-1") : Endpoint.token) {
            for await _ in never {}
        }
        await phone.launch()
        #expect(await phone.screen == .home(.offline))
        #expect(prompts.withLock { $0 } == 2, "the enrolment's check and one at the unlock: offline too, home opens only after Face ID")
        #expect(phone.server.requests(to: Endpoint.challenges("device-1")).count == 1)
        #expect(phone.server.requests(to: Endpoint.token).count == (stalled == "challenge" ? 0 : 1), "no session was asked for without a challenge")
        #expect(try await phone.storage.readString(.refreshToken) == "refresh-0", "the cached session stays")
        #expect(await phone.key.exists())
        #expect(try await phone.storage.readString(.deviceID) == "device-1")
    }

    @Test("S25.1: a device registration that cannot be read now counts as enrolled at launch, and the unlock deletes nothing")
    func unreadableRegistrationIsNotGone() async throws {
        let inner = MemorySecureStorage()
        try await inner.write("device-1", for: .deviceID)
        try await inner.write("refresh-0", for: .refreshToken)
        let key = SoftwareDeviceKey()
        _ = try await key.create(prompt: .enrolment(.en))
        let phone = TestPhone(storage: LockableStorage(inner, locked: [.deviceID]), biometry: .available(.face), session: true, enrolled: true, key: key)

        let stored = await AuthContext.stored(in: phone.storage, tokens: phone.tokens, biometry: .available(.face), online: true, at: Date())
        #expect(stored.deviceKeyEnrolled, "never taken for 'no biometrics', which would open home without a check")
        #expect(stored.hasSession)

        await phone.driver.send(.launched(stored))
        #expect(await phone.screen == .unlock(.biometricsUnavailableNow), "try again, not 'your enrolment changed'")
        #expect(try await inner.readString(.deviceID) == "device-1")
        #expect(try await inner.readString(.refreshToken) == "refresh-0")
        #expect(await key.exists(), "the key stays")
        #expect(phone.server.requests(to: Endpoint.revoke).isEmpty && phone.server.requests(to: Endpoint.device("device-1")).isEmpty)
    }

    @Test("S25.1: a member who never enrolled, whose registration could not be read at launch, resumes silently: no 'enrolment changed', no logout")
    func neverEnrolledResumesAfterAnUnreadableLaunch() async throws {
        let inner = MemorySecureStorage()
        try await inner.write("refresh-0", for: .refreshToken)
        // A launch in the background, which the member then brings to the front.
        let keychain = LockableStorage(inner, locked: [.deviceID])
        let phone = TestPhone(storage: keychain, biometry: .available(.face), session: true)
        phone.server.on(Endpoint.token, .tokens(for: "kari", refresh: "refresh-1"))

        let stored = await AuthContext.stored(in: phone.storage, tokens: phone.tokens, biometry: .available(.face), online: true, at: Date())
        #expect(stored.deviceKeyEnrolled, "assumed, as the read threw")
        keychain.unlock()
        await phone.driver.send(.launched(stored))

        #expect(await phone.screen == .home(nil))
        #expect(phone.server.requests(to: Endpoint.revoke).isEmpty, "the session was not ended")
        #expect(phone.server.requests(to: Endpoint.token).map { $0.form["refresh_token"] } == ["refresh-0"], "refreshed silently")
        #expect(try await inner.readString(.refreshToken) == "refresh-1")
        #expect(await !phone.driver.machine.context.deviceKeyEnrolled)
    }

    @Test("S6.2: a device key whose id is no longer stored counts as a changed enrolment: the session ends here and at the server")
    func keyWithoutItsIDIsInvalidated() async throws {
        let key = SoftwareDeviceKey()
        _ = try await key.create(prompt: .enrolment(.en))
        let phone = TestPhone(biometry: .available(.face), session: true, enrolled: true, key: key)
        try await phone.storage.write("refresh-0", for: .refreshToken)
        await phone.launch()

        #expect(await phone.screen == .methodSelection(.biometricEnrolmentChanged))
        #expect(phone.server.requests(to: Endpoint.revoke).map { $0.form["token"] } == ["refresh-0"], "ended at the server")
        #expect(try await phone.storage.read(.refreshToken) == nil, "and forgotten here")
        #expect(!phone.server.paths.contains { $0.hasSuffix("/challenges") }, "no prompt for a key that cannot unlock")
    }

    @Test("S16.2, S5.2: a missed biometric check is counted in storage; the next one passes, the count is cleared, and home opens")
    func missedCheckIsCounted() async throws {
        let phone = try await Self.enrolledPhone(checks: [.failed])
        await phone.launch()
        #expect(await phone.screen == .unlock(.biometricFailed))
        #expect(try await phone.storage.readString(.biometricFailures) == "1", "a relaunch still knows")

        await phone.driver.send(.retryUnlock)
        #expect(await phone.screen == .home(nil))
        #expect(try await phone.storage.read(.biometricFailures) == nil)
        #expect(try await phone.storage.readString(.refreshToken) == "refresh-1", "the unlock opened a new session")
    }

    @Test("S7.2: turning biometric login off removes the key here and at the server and forgets the stored session, while this run stays signed in")
    func turningBiometricsOff() async throws {
        let phone = try await Self.enrolledPhone()
        await phone.launch()
        #expect(await phone.screen == .home(nil))
        await phone.driver.send(.settingsDisableRequested)
        await phone.driver.send(.settingsDisableBiometrics)

        #expect(phone.server.requests(to: Endpoint.device("device-1")).map(\.method) == ["DELETE"])
        #expect(await phone.key.exists() == false)
        #expect(try await phone.storage.read(.deviceID) == nil)
        #expect(try await phone.storage.read(.refreshToken) == nil, "the next launch shows the method selection")
        #expect(await phone.screen == .home(nil))
        #expect(try await phone.tokens.accessToken() == FakePortvakt.accessToken(for: "kari"), "this run stays signed in")
    }

    @Test("S8.2, S12.4: a session without a device key is refreshed silently, opens home, and sends what was queued offline")
    func silentRefreshSendsTheQueue() async throws {
        let phone = TestPhone(session: true)
        try await phone.storage.write("refresh-0", for: .refreshToken)
        let write = QueuedWrite(path: "v1/activities", body: Data(#"{"note":"Walk"}"#.utf8), userID: "kari", createdAt: FakeClock.start)
        try await phone.queue.enqueue(write)
        phone.server.on(Endpoint.token, .tokens(for: "kari", refresh: "refresh-1"))
        phone.server.on(Endpoint.activities, .status(201, Data("{}".utf8)))
        await phone.launch()

        #expect(await phone.screen == .home(nil))
        #expect(phone.server.requests(to: Endpoint.token).map { $0.form["refresh_token"] } == ["refresh-0"])
        #expect(try await phone.storage.readString(.refreshToken) == "refresh-1")
        #expect(phone.server.requests(to: Endpoint.activities).map { $0.header("Idempotency-Key") } == [write.id])
        #expect(try await phone.queue.pending().isEmpty)
    }

    @Test("S8.3, S5.4: a refresh answered invalid_grant goes to the login with 'Your session has expired' and keeps no session")
    func expiredSession() async throws {
        let phone = TestPhone(session: true)
        try await phone.storage.write("refresh-0", for: .refreshToken)
        phone.server.on(Endpoint.token, .refused(400, error: OAuthErrorCode.invalidGrant.rawValue, message: nil))
        await phone.launch()

        #expect(await phone.screen == .methodSelection(.sessionExpired))
        #expect(try await phone.storage.read(.refreshToken) == nil)
        #expect(await phone.driver.machine.context.hasSession == false)
    }

    @Test("S12.4: a session kept from before its user was recorded learns the user from its next access token and sends that user's queued writes")
    func userFromBeforeTheUserWasKept() async throws {
        let phone = TestPhone(session: true)
        try await phone.storage.write("refresh-0", for: .refreshToken)
        let write = QueuedWrite(path: "v1/activities", body: Data(#"{"note":"Walk"}"#.utf8), userID: "kari", createdAt: FakeClock.start)
        try await phone.queue.enqueue(write)
        phone.server.on(Endpoint.token, .tokens(for: "kari", refresh: "refresh-1"))
        phone.server.on(Endpoint.activities, .status(201, Data("{}".utf8)))

        let report = try await phone.driver.sync()
        #expect(report.sent == [write.id])
        #expect(await phone.driver.currentUserID() == "kari")
        #expect(try await phone.storage.readString(.sessionUser) == "kari", "known offline from now on")
    }

    static let enrolmentRefusals: [EnrolmentRefusal] = [
        EnrolmentRefusal(testDescription: "the sensor locked", checks: [.lockout], registration: .status(201, Data()), shown: .biometricLockedOut),
        EnrolmentRefusal(
            testDescription: "too many devices", checks: [], registration: .refused(409, error: "invalid_request", message: .deviceLimitReached),
            shown: .deviceLimitReached
        ),
        EnrolmentRefusal(testDescription: "Portvakt out of reach", checks: [], registration: .offline, shown: .biometricUnlockFailed),
    ]

    @Test("S4.2, S6.5: an enrolment the biometric check or the server refuses leaves biometric login off and says why", arguments: AuthDriverTests.enrolmentRefusals)
    func enrolmentRefused(_ refusal: EnrolmentRefusal) async throws {
        let key = SoftwareDeviceKey()
        await key.script(refusal.checks)
        let phone = TestPhone(biometry: .available(.face), session: true, key: key)
        try await phone.storage.write("refresh-0", for: .refreshToken)
        phone.server.on(Endpoint.token, .tokens(for: "kari", refresh: "refresh-1"))
        phone.server.on(Endpoint.devices, refusal.registration)
        await phone.launch()
        #expect(await phone.screen == .home(nil))
        await phone.driver.send(.settingsEnableBiometrics)

        #expect(await phone.screen == .home(refusal.shown))
        #expect(await phone.driver.machine.context.deviceKeyEnrolled == false)
        #expect(await phone.key.exists() == false, "no key is left that the server does not know")
        #expect(try await phone.storage.read(.deviceID) == nil)
    }

    @Test("An app that gives the driver no clock has its BankID order timed by the wall clock, and the polling really waits")
    func wallClockByDefault() async throws {
        let storage = MemorySecureStorage()
        let client = PortvaktClient(configuration: PortvaktConfiguration(baseURL: try #require(URL(string: "http://127.0.0.1:9"))))
        let services = AuthServices(
            client: client, storage: storage, tokens: TokenManager(storage: storage, refresher: client), queue: OfflineQueue(storage: storage),
            deviceKey: SoftwareDeviceKey(), browser: PortvaktModelTests.NoBrowser(), opener: PortvaktModelTests.NoApp(), deviceName: "test phone",
            platform: "linux", language: .en
        )
        let before = Date()
        let now = services.now()
        #expect(before <= now && now <= Date())
        let waited = try await ContinuousClock().measure { try await services.sleep(.milliseconds(20)) }
        #expect(waited >= .milliseconds(20))
    }
}
