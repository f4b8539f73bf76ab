import Foundation
import PortvaktProtocol

/// What the ``AuthDriver`` needs from the platform and the server.
public struct AuthServices: Sendable {
    public let client: PortvaktClient
    public let storage: any SecureStorage
    public let tokens: TokenManager
    public let queue: OfflineQueue
    public let deviceKey: any DeviceKey
    public let browser: any WebAuthenticator
    public let opener: any URLOpener
    /// The device's model ("iPhone"), which names its key beside what the member types (``DeviceName``).
    public let deviceName: String
    public let platform: String
    public let language: Language
    public let now: @Sendable () -> Date
    public let sleep: @Sendable (Duration) async throws -> Void

    public init(
        client: PortvaktClient, storage: any SecureStorage, tokens: TokenManager, queue: OfflineQueue, deviceKey: any DeviceKey,
        browser: any WebAuthenticator, opener: any URLOpener, deviceName: String, platform: String, language: Language,
        now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.client = client
        self.storage = storage
        self.tokens = tokens
        self.queue = queue
        self.deviceKey = deviceKey
        self.browser = browser
        self.opener = opener
        self.deviceName = deviceName
        self.platform = platform
        self.language = language
        self.now = now
        self.sleep = sleep
    }
}

/// Carries out an ``AuthMachine``'s effects with the platform's adapters and feeds the answers
/// back as events, until the machine waits for the user again. The machine decides; this only
/// does what it is told, so an app (or the CLI) draws `machine.screen` after each `send`.
public actor AuthDriver {
    public internal(set) var machine: AuthMachine
    let services: AuthServices
    /// Logouts whose revocation waits for the network.
    let revocations: PendingRevocations
    /// Whether the last logout's revocation reached Portvakt; false: it waits in
    /// ``PendingRevocations`` for the network (say so: the session is still listed there).
    public internal(set) var lastLogoutReachedServer = true
    /// Logins pushing their request (PAR, bound to the proof key) before their verifier is stored.
    var loginsStarting = 0
    /// The code from the browser or the order, until it is exchanged.
    var pendingCode: String?
    var orderSessionID: String?
    var orderStartedAt: Date?
    /// A callback is being resumed (``resume(from:)``): a second delivery waits its turn out.
    private var resuming = false
    /// The password typed at the enrolment's confirmation, until the enrolment has used it.
    var enrolmentPassword: String?
    /// What the member called this phone (``nameThisDevice(_:)``).
    var typedDeviceName: String?
    /// The server said its authorization answers name the issuer (discovery, RFC 9207).
    private var answersNameIssuer = false
    /// Counts the person's fresh starts (a method chosen, a cancel, a logout): what an earlier
    /// start's effects bring back later is dropped, so a double tap or a quick cancel and
    /// retry never lets an abandoned browser or order act on the new one's screen.
    var attempt = 0
    let observer: (@Sendable (AuthMachine) -> Void)?

    /// - Parameters:
    ///   - context: what the app knows at launch (session, device key, biometry, network).
    ///   - services: the server client and the platform's adapters.
    ///   - observer: called after every transition (to redraw a spinner, a QR code, …).
    public init(context: AuthContext, services: AuthServices, observer: (@Sendable (AuthMachine) -> Void)? = nil) {
        machine = AuthMachine(context: context)
        self.services = services
        revocations = PendingRevocations(storage: services.storage, client: services.client)
        self.observer = observer
    }

    /// Hands `event` to the machine and carries out what follows, to the next resting screen.
    /// Cancelling the caller cancels what follows (an open browser, a running order's polling).
    public func send(_ event: AuthEvent) async {
        let following = submit(event)
        await withTaskCancellationHandler { await following.value } onCancel: { following.cancel() }
    }

    /// Hands `event` to the machine now and carries out what follows in a task of its own, so a
    /// user's actions reach the machine in the order they were submitted even while an earlier
    /// one's effects still run (a "Cancel" during a BankID order).
    @discardableResult
    public func submit(_ event: AuthEvent) -> Task<Void, Never> {
        let before = machine.screen
        let effects = machine.handle(event)
        if event.startsAnew, machine.screen != before || !effects.isEmpty { attempt += 1 }
        observer?(machine)
        let mine = attempt
        return Task {
            // An effect's answer is handled before the next effect runs: the BankID app's "did
            // not open" must reach the machine (QR code) before polling starts.
            for effect in effects {
                guard mine == attempt else { return }
                if let next = await perform(effect, attempt: mine), mine == attempt { await send(next) }
            }
        }
    }

    /// Asks the server which ways in it offers, so the method selection shows only those, and
    /// whether its answers name it. Offline, or from a server that does not say, the selection
    /// keeps every method.
    public func learnOfferedMethods() async {
        guard let discovery = try? await services.client.discovery() else { return }
        answersNameIssuer = discovery.answersNameIssuer
        guard let methods = discovery.loginMethods, !methods.isEmpty else { return }
        machine.context.offeredMethods = methods.union([.password])
        observer?(machine)
    }

    /// Whether a BankID order is running.
    public var orderIsRunning: Bool {
        if case .bankIDOrder = machine.screen { return true }
        return false
    }

    func perform(_ effect: AuthEffect, attempt mine: Int) async -> AuthEvent? {
        let s = services
        switch effect {
        case .openBrowser(let method):
            return await browserLogin(method, attempt: mine)
        case .exchangeCode:
            return await exchangeCode()
        case .clearVerifier:
            try? await s.storage.delete(.pkceVerifier)
            try? await s.storage.delete(.pkceState)
        case .startBankIDOrder:
            let verifier = PKCE.makeVerifier()
            do {
                try await s.storage.write(verifier, for: .pkceVerifier)
                // The launch link returns to the app (configuration's bankIDReturnURL, S3.2).
                let order = try await s.client.startBankIDOrder(verifier: verifier, language: s.language)
                guard mine == attempt else {
                    // Abandoned while it started: it ends at BankID too, and the next order's id stays.
                    try? await s.client.cancelBankIDOrder(sessionID: order.sessionID)
                    return nil
                }
                let started = s.now()
                orderSessionID = order.sessionID
                orderStartedAt = started
                return .orderStarted(launchURL: order.launchURL, at: started)
            } catch let error as PortvaktError {
                return .orderFailed(error.message)
            } catch {
                return .orderFailed(.bankIDUnavailable)
            }
        case .storeBankIDSessionRef:
            await storeOrder()
        case .clearBankIDSessionRef:
            await forgetStoredOrder()
        case .openBankIDApp(let url):
            return .bankIDAppOpened(await s.opener.open(url))
        case .pollBankIDOrder:
            return await pollOrder(attempt: mine)
        case .stopPollingBankIDOrder:
            break  // the poll loop stops when the screen leaves the order
        case .cancelBankIDOrder:
            if let id = orderSessionID { try? await s.client.cancelBankIDOrder(sessionID: id) }
        case .unlockWithDeviceKey:
            // A read that throws (a passing Keychain error, the phone locked) deletes nothing and
            // offers to try again. No registration beside a key is a stale key; no registration
            // and no key, a launch that could not read and assumed one (nothing was enrolled).
            let registered: String?
            do { registered = try await s.storage.readString(.deviceID) } catch { return .unlockFailed(.unavailableNow) }
            guard let deviceID = registered else { return await s.deviceKey.exists() ? .unlockFailed(.invalidated) : .deviceNotRegistered }
            return await DeviceUnlocker(client: s.client, key: s.deviceKey, deviceID: deviceID, language: s.language).unlock(into: s.tokens)
        case .refreshSilently:
            do {
                try await s.tokens.refresh()
                return .silentRefreshSucceeded
            } catch TokenRefreshError.sessionExpired {
                return .sessionExpired
            } catch {
                return .silentRefreshUnavailable
            }
        case .enrolDeviceKey:
            return await enrol()
        case .raiseDeviceKey:
            await raiseDeviceKey()
        case .deleteDeviceKey:
            await s.deviceKey.delete()
            if let id = try? await s.storage.readString(.deviceID) {
                // Also at the server while a session is there; a key already gone locally cannot unlock anyway.
                if let access = try? await s.tokens.accessToken() { try? await s.client.revokeDevice(id, accessToken: access) }
                try? await s.storage.delete(.deviceID)
            }
            try? await s.storage.delete(.deviceAssurance)
            machine.context.deviceKeyIsPasswordLevel = false
        case .clearSession:
            await endSession()
            // S12.3: what was seen in the session goes with it.
            await OfflineCache(storage: s.storage).clear()
        case .forgetStoredSession:
            _ = try? await s.tokens.forgetStoredSession()
        case .syncOfflineQueue:
            _ = try? await sync()
        case .storeBiometricFailures(let count):
            if count == 0 { try? await s.storage.delete(.biometricFailures) } else { try? await s.storage.write(String(count), for: .biometricFailures) }
        case .storeLastMethod(let method):
            try? await s.storage.write(method.rawValue, for: .lastLoginMethod)
        case .fetchNotices:
            return await notices()
        }
        return nil
    }

    /// `/v1/me`'s notices: the first the app knows how to say; nothing when it cannot ask.
    private func notices() async -> AuthEvent? {
        let s = services
        guard let access = try? await s.tokens.accessToken(),
              let me = try? await s.client.get("v1/me?ui_locales=\(s.language.rawValue)", as: MeResponse.self, accessToken: access)
        else { return nil }
        return me.notices.lazy.compactMap { UserMessage(rawValue: $0.messageID) }.first.map(AuthEvent.noticeArrived)
    }

    /// S2.4: the browser's answer reached an app that was relaunched while the browser was open
    /// (the platform hands the callback URL to the new process). The stored verifier and `state`
    /// finish the login as if the app had waited.
    ///
    /// A URL at the app's scheme can come from anywhere: one whose `state` is not the stored one
    /// is ignored (nothing is said or cleared), and the stored state is used up before anything
    /// else, so a callback delivered twice is exchanged once.
    public func resume(from callback: URL) async {
        if isBankIDReturn(callback) { return await resumeStoredOrder() }
        switch machine.screen {
        case .launching, .methodSelection, .browser: break
        default: return
        }
        let fields = Self.fields(of: callback)
        let s = services
        guard BrowserCallback(redirectURI: s.client.configuration.redirectURI)?.matches(callback) == true else { return }
        guard !resuming, let state = try? await s.storage.readString(.pkceState), let given = fields["state"], constantTimeEqual(given, state),
              s.client.configuration.isOwnIssuer(fields["iss"], required: answersNameIssuer) else { return }
        resuming = true
        defer { resuming = false }
        try? await s.storage.delete(.pkceState)
        // The method is what the relaunched app remembers once the login works (S16.3).
        if let method = ((try? await s.storage.readString(.pkceMethod)) ?? nil).flatMap(LoginMethod.init(rawValue:)) {
            machine.context.attemptedMethod = method
        }
        if let code = fields["code"] {
            pendingCode = code
            return await send(.browserReturnedCode)
        }
        let message = UserMessage(serverID: fields["message_id"])
        await send(message.isQuiet ? .browserCancelled : .browserFailed(message))
    }

    private static func fields(of url: URL) -> [String: String] {
        Dictionary(
            (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { ($0.name, $0.value ?? "") },
            uniquingKeysWith: { first, _ in first })
    }

    /// The user of the current session, whose writes it queues and sends.
    public func currentUserID() async -> String? {
        if let user = await services.tokens.userID() { return user }
        // A session kept from before its user was recorded: its next access token names it.
        _ = try? await services.tokens.accessToken()
        return await services.tokens.userID()
    }

    /// Replays this user's writes in the offline queue with a fresh access token (S12.4); another
    /// login's stay where they are (review III, item 3).
    @discardableResult
    public func sync() async throws -> OfflineQueue.Report {
        let s = services
        await sendPendingRevocations()
        guard let user = await currentUserID() else { return OfflineQueue.Report(otherLogins: try await s.queue.pending().count) }
        return try await s.queue.replay(as: user) { write in
            guard let access = try? await s.tokens.accessToken() else { return .unavailable }
            return await s.client.send(write, accessToken: access)
        }
    }

    private func browserLogin(_ method: LoginMethod, attempt mine: Int) async -> AuthEvent? {
        let s = services
        // Its pushed request binds the login to the proof key: a revocation sent meanwhile keeps it.
        loginsStarting += 1
        defer { loginsStarting -= 1 }
        do {
            let request = try await s.client.authorizationRequest(method, language: s.language)
            // A newer start's verifier and state are not overwritten by an abandoned one's.
            guard mine == attempt else { return nil }
            // The verifier and state are stored before the browser opens, so an app killed
            // meanwhile can finish (``resume(from:)``).
            // Its verifier replaces an ended order's, which could not finish after this.
            await forgetStoredOrder()
            try await s.storage.write(request.verifier, for: .pkceVerifier)
            try await s.storage.write(request.state, for: .pkceState)
            try await s.storage.write(method.rawValue, for: .pkceMethod)
            guard let callback = BrowserCallback(redirectURI: s.client.configuration.redirectURI) else { return .browserFailed(.loginFailed) }
            let answer = try await s.browser.authenticate(url: request.url, callback: callback)
            let fields = Self.fields(of: answer)
            guard callback.matches(answer), fields["state"] == request.state,
                  s.client.configuration.isOwnIssuer(fields["iss"], required: answersNameIssuer) else { return .browserFailed(.loginFailed) }
            guard mine == attempt else { return nil }
            if let code = fields["code"] {
                pendingCode = code
                return .browserReturnedCode
            }
            let message = UserMessage(serverID: fields["message_id"])
            return message.isQuiet ? .browserCancelled : .browserFailed(message)
        } catch WebAuthenticationError.cancelled {
            return .browserCancelled
        } catch WebAuthenticationError.refused(let message) {
            return .browserFailed(message)
        } catch let error as PortvaktError {
            return .browserFailed(error.message)
        } catch is URLError {
            return .browserFailed(method.unavailableMessage)
        } catch {
            return .browserFailed(.loginFailed)
        }
    }

    private func exchangeCode() async -> AuthEvent {
        let s = services
        defer { pendingCode = nil }
        do {
            guard let code = pendingCode, let verifier = try await s.storage.readString(.pkceVerifier) else { return .loginFailed(.loginFailed) }
            var tokens = try await s.client.exchange(code: code, verifier: verifier)
            // A password login answers for a password-level key's trust; a phone whose key is
            // BankID's keeps the end its own logins gave it.
            let context = machine.context
            if context.attemptedMethod == .password, context.deviceKeyEnrolled, !context.deviceKeyIsPasswordLevel { tokens.deviceTrustEndsAt = nil }
            try await s.tokens.signedIn(tokens)
            try await s.storage.delete(.pkceVerifier)
            try await s.storage.delete(.pkceState)
            // The network works now: an earlier logout's revocation that could not be sent goes too.
            await sendPendingRevocations()
            return .loginCompleted
        } catch let error as PortvaktError {
            return .loginFailed(error.message)
        } catch {
            return .loginFailed(.loginFailed)
        }
    }
}
