import Foundation
import PortvaktProtocol
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one object an app holds: it bootstraps the secure storage, runs the login journey
/// (``AuthMachine`` through ``AuthDriver``), and gives the app what it needs afterwards: the
/// state as a stream, step-up tokens, and authorized requests of any method.
///
/// ```swift
/// let portvakt = Portvakt(configuration: configuration, platform: .apple(anchor: { window }))
/// await portvakt.start()
/// for await state in portvakt.states() { draw(state) }
/// ```
public actor Portvakt {
    public nonisolated let configuration: PortvaktConfiguration
    public nonisolated let language: Language
    public nonisolated let client: PortvaktClient
    public nonisolated let tokens: TokenManager
    public nonisolated let queue: OfflineQueue
    private let platform: PortvaktPlatform
    private let driver: AuthDriver
    private nonisolated let broadcast: StateBroadcast
    private var reachabilityWatch: Task<Void, Never>?

    public init(configuration: PortvaktConfiguration, platform: PortvaktPlatform, language: Language = .nb, lockAfter: TimeInterval = AuthContext.defaultLockAfter) {
        // A redirect URI the browser cannot be given (a scheme without a dot, a path that is not
        // the app's) fails every browser login: say so at set-up, not as "login failed".
        assert(BrowserCallback(redirectURI: configuration.redirectURI) != nil, "PortvaktConfiguration.redirectURI \(configuration.redirectURI) cannot be a browser callback")
        self.configuration = configuration
        self.language = language
        self.platform = platform
        client = PortvaktClient(configuration: configuration, proofKey: platform.proofKey)
        tokens = TokenManager(storage: platform.storage, refresher: client)
        queue = OfflineQueue(storage: platform.storage)
        var initial = AuthContext(biometry: .notAvailable, hasSession: false, deviceKeyEnrolled: false, online: true)
        initial.lockAfter = lockAfter
        let broadcast = StateBroadcast(AuthMachine(context: initial))
        self.broadcast = broadcast
        let services = AuthServices(
            client: client, storage: platform.storage, tokens: tokens, queue: queue, deviceKey: platform.deviceKey, browser: platform.browser,
            opener: platform.opener, deviceName: platform.deviceName, platform: platform.platform, language: language, now: platform.now,
            sleep: platform.sleep
        )
        driver = AuthDriver(context: initial, services: services) { broadcast.publish($0) }
    }

    // MARK: - State

    /// The journey now: its screen and what the device knows.
    public var machine: AuthMachine { broadcast.current }

    /// The current state at once, then every transition, until the caller stops listening.
    public nonisolated func states() -> AsyncStream<AuthMachine> {
        broadcast.subscribe()
    }

    // MARK: - The journey

    /// At launch: a new installation first forgets whatever an earlier one left in the
    /// Keychain; then what the device knows (a session, a device key, failed attempts, when the
    /// session and the device trust end, the method used last) goes to the machine, which
    /// resumes the session, asks for the biometric check or shows the login (S16).
    public func start() async {
        let storage = platform.storage
        // Marked only once everything is gone: otherwise the next launch wipes again.
        if platform.firstRun.isFirstRun(), (try? await storage.deleteAll()) != nil {
            platform.firstRun.markInstalled()
        }
        await driver.send(.launched(await launchContext()))
        // After the launch, not before it: on a weak network the first screen never waits for it.
        let driver = self.driver
        // S3.3: an order the app was ended during (the member in the BankID app) is collected,
        // beside the rest: its polling lasts until the order ends.
        Task { await driver.resumeStoredOrder() }
        Task {
            await driver.learnOfferedMethods()
            await driver.sendPendingRevocations()
        }
        watchReachability()
    }

    /// Hands any user action to the journey (``AuthEvent``) and returns at its next resting screen.
    public func send(_ event: AuthEvent) async {
        await driver.send(event)
    }

    /// Hands a user action to the journey and returns once the machine has it, while what
    /// follows runs on: actions submitted one after another reach the machine in that order.
    public func submit(_ event: AuthEvent) async {
        await driver.submit(event)
    }

    /// What the member calls this phone ("Work phone"), for the next enrolment: "Remove a phone"
    /// then tells their phones apart (``DeviceName``).
    public func nameThisDevice(_ name: String) async {
        await driver.nameThisDevice(name)
    }

    /// The password typed at ``AuthScreen/enrolmentConfirmation(passwordFirst:message:)``: biometric
    /// login is turned on with it, at the password's level.
    public func confirmEnrolment(password: String) async {
        await driver.confirmEnrolment(password: password)
    }

    public func login(with method: LoginMethod) async {
        await driver.send(.methodChosen(method))
    }

    /// The biometric check again from the unlock screen.
    public func unlock() async {
        await driver.send(.retryUnlock)
    }

    /// The app leaves the front (hide sensitive content now).
    public func enteredBackground() async {
        await driver.send(.enteredBackground(ContinuousClock.now))
    }

    /// The app is in front again: after ``AuthContext/lockAfter`` the biometric check comes first (S16.1).
    public func returnedToForeground() async {
        await driver.send(.returnedToForeground(ContinuousClock.now, biometry: await platform.biometry(), at: platform.now()))
    }

    /// A callback URL the system handed to the app (a relaunch while the browser was open, S2.4).
    public func resume(from callback: URL) async {
        await driver.resume(from: callback)
    }

    /// Ends the session here and at the server, clears what it cached, and deletes the proof key.
    /// Without a network the session ends here at once and at the server at the next chance
    /// (``sendPendingRevocations()``): ``lastLogoutReachedServer`` says which happened.
    public func logout() async {
        await driver.send(.logout)
    }

    /// Whether the last logout ended the session at the server too; false: tell the member it
    /// ends there once the phone is online (the launch, the network's return and a login send it).
    public var lastLogoutReachedServer: Bool {
        get async { await driver.lastLogoutReachedServer }
    }

    /// Sends the revocations of logouts made without a network. - Returns: how many still wait.
    @discardableResult
    public func sendPendingRevocations() async -> Int {
        await driver.sendPendingRevocations()
    }

    // MARK: - After the login

    /// An elevated token for `action` after the biometric check (S11): its token and when it
    /// stops working, as the server said. A key found gone (a face or finger added) ends the
    /// session as at the unlock (S6.2): the journey goes to the login.
    /// - Throws: ``PortvaktAccessError/locked`` (the biometric check of the unlock comes first),
    ///   ``BiometricFailure`` (the check), ``PortvaktError`` (the server refused),
    ///   ``TokenRefreshError`` (no session), `URLError` (no network).
    public func stepUp(for action: StepUpAction) async throws -> ElevatedToken {
        try requireUnlocked()
        guard let deviceID = try await platform.storage.readString(.deviceID) else { throw BiometricFailure.invalidated }
        let unlocker = DeviceUnlocker(client: client, key: platform.deviceKey, deviceID: deviceID, language: language)
        do {
            return try await unlocker.stepUp(action, accessToken: try await validAccessToken(refreshing: false))
        } catch BiometricFailure.invalidated {
            await driver.send(.stepUpKeyInvalidated)
            throw BiometricFailure.invalidated
        }
    }

    /// An elevated token for `action` with the account's password, typed again (S11.3).
    /// - Throws: ``PortvaktAccessError/locked`` before a login or the biometric check in this run.
    public func stepUp(for action: StepUpAction, password: String) async throws -> ElevatedToken {
        try requireUnlocked()
        return try await client.stepUp(action, password: password, accessToken: try await validAccessToken(refreshing: false))
    }

    /// `request` to the app's API with the session: the access token (refreshed first when
    /// due, one refresh for all callers) and, for a bound token, a DPoP proof of the request's
    /// method and URL; a new nonce asked for is used once. An answer that the token is no
    /// longer valid refreshes once and sends again; a refresh refused ends the session
    /// (``TokenRefreshError/sessionExpired``, the journey goes to the login). Before a login or
    /// the biometric check in this run it throws ``PortvaktAccessError/locked`` and sends nothing.
    /// (``client`` and ``tokens`` are the parts underneath, without this check.)
    public func authorizedRequest(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        // The session's token goes to Portvakt alone, never to a host the request happens to name.
        guard let url = request.url, Self.sameOrigin(url, configuration.baseURL) else { throw URLError(.unsupportedURL) }
        try requireUnlocked()
        let first = try await validAccessToken(refreshing: false)
        let (data, response) = try await client.send(request, accessToken: first)
        guard response.statusCode == 401, Self.tokenRejected(response) else { return (data, response) }
        // Locked meanwhile (the app went away past lockAfter): no new token for the old request.
        try requireUnlocked()
        let second = try await validAccessToken(refreshing: true)
        return try await client.send(request, accessToken: second)
    }

    /// `/v1/me` in the app's language: who is signed in, their organisations and roles, the home
    /// screen, and the brand the app's own screens show (`brand`, its client's).
    /// - Throws: as ``authorizedRequest(_:)``; ``PortvaktError`` when the server refused.
    public func me() async throws -> MeResponse {
        var components = URLComponents(url: configuration.baseURL.appending(path: "v1/me"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "ui_locales", value: language.rawValue)]
        guard let url = components?.url else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response) = try await authorizedRequest(request)
        return try PortvaktClient.decode(MeResponse.self, from: try PortvaktClient.answer(data, status: response.statusCode))
    }

    /// Replays this user's queued writes now (the queue is replayed by itself when the network returns).
    @discardableResult
    public func sync() async throws -> OfflineQueue.Report {
        try requireUnlocked()
        return try await driver.sync()
    }

    // MARK: -

    /// A session on the unlock screen is not for use until the person passes the check (S5, S16.1).
    private func requireUnlocked() throws {
        guard broadcast.current.isUnlocked else { throw PortvaktAccessError.locked }
    }

    private func validAccessToken(refreshing: Bool) async throws -> String {
        do {
            if refreshing { return try await tokens.refresh().accessToken }
            return try await tokens.accessToken()
        } catch TokenRefreshError.sessionExpired {
            await driver.send(.sessionExpired)
            throw TokenRefreshError.sessionExpired
        }
    }

    static func sameOrigin(_ url: URL, _ base: URL) -> Bool {
        func origin(_ url: URL) -> (String?, String?, Int?) {
            let scheme = url.scheme?.lowercased()
            return (scheme, url.host?.lowercased(), url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil))
        }
        return origin(url) == origin(base)
    }

    /// RFC 6750 §3.1 / RFC 9449 §7.1: `invalid_token` (expired or revoked), not a missing step-up
    /// or a nonce (those the client handles otherwise).
    static func tokenRejected(_ response: HTTPURLResponse) -> Bool {
        response.value(forHTTPHeaderField: "WWW-Authenticate")?.contains("error=\"\(OAuthErrorCode.invalidToken.rawValue)\"") == true
    }

    private func launchContext() async -> AuthContext {
        var context = await AuthContext.stored(
            in: platform.storage, tokens: tokens, biometry: await platform.biometry(), online: await platform.reachability?.isOnline ?? true,
            at: platform.now()
        )
        context.lockAfter = broadcast.current.context.lockAfter
        return context
    }

    /// S12.4: when the network returns, this user's queued writes are sent.
    private func watchReachability() {
        guard reachabilityWatch == nil, let reachability = platform.reachability else { return }
        let driver = driver
        reachabilityWatch = Task {
            // The machine decides what a change means (the offline banner, the queue's replay
            // once home and unlocked).
            for await online in reachability.changes() {
                await driver.send(.networkChanged(online: online))
                if online { await driver.sendPendingRevocations() }
            }
        }
    }

    deinit {
        reachabilityWatch?.cancel()
        broadcast.finish()
    }
}

/// Why ``Portvakt`` will not use the session now.
public enum PortvaktAccessError: Error, Sendable, Hashable {
    /// No one has logged in or passed the biometric check in this run (the unlock screen, the
    /// login, or a return after ``AuthContext/lockAfter``): show the journey's screen first.
    case locked
}

/// The latest machine and everyone listening to it.
final class StateBroadcast: Sendable {
    private struct State {
        var current: AuthMachine
        var listeners: [UInt64: AsyncStream<AuthMachine>.Continuation] = [:]
        var next: UInt64 = 0
    }

    private let state: Locked<State>

    init(_ initial: AuthMachine) {
        state = Locked(State(current: initial))
    }

    var current: AuthMachine { state.withLock { $0.current } }

    func publish(_ machine: AuthMachine) {
        let listeners = state.withLock { state in
            state.current = machine
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield(machine) }
    }

    func subscribe() -> AsyncStream<AuthMachine> {
        // The newest state only: a slow reader skips to it instead of drawing stale screens.
        let (stream, continuation) = AsyncStream.makeStream(of: AuthMachine.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            let id = state.next
            state.next += 1
            state.listeners[id] = continuation
            continuation.yield(state.current)
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    func finish() {
        let listeners = state.withLock { state in
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }
}
