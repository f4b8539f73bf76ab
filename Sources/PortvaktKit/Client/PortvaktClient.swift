import Foundation
import PortvaktProtocol
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where the app's Portvakt is, and who the app is to it.
public struct PortvaktConfiguration: Sendable, Hashable {
    public let baseURL: URL
    public let clientID: String
    /// The app's redirect URI, registered at Portvakt (`no.portvakt.app:/oauth/callback`).
    public let redirectURI: String
    /// Where the BankID app switches back to after a BankID order on this phone: the app's
    /// universal link or a URL at its scheme, on the client's `bankid_return_url` allow-list
    /// (`no.portvakt.app:/bankid/return` for the development app). Nil: the member switches back
    /// by hand.
    public let bankIDReturnURL: String?
    /// How long the unlock waits for its challenge, and for its session after Face ID, before it
    /// opens the cached session offline (S29.3, S5.2): a weak network never holds the member.
    public var challengeDeadline: TimeInterval = 2
    public var unlockDeadline: TimeInterval = 1.5

    public init(
        baseURL: URL, clientID: String = "no.portvakt.app", redirectURI: String = "no.portvakt.app:/oauth/callback", bankIDReturnURL: String? = nil
    ) {
        self.baseURL = baseURL
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.bankIDReturnURL = bankIDReturnURL
    }
}

/// A login in the in-app browser: the URL to open, and what to keep (securely) until the answer.
public struct AuthorizationRequest: Sendable, Hashable {
    public let url: URL
    public let verifier: String
    public let state: String
}

/// An elevated token for one sensitive action (S11), and when it stops working.
public struct ElevatedToken: Sendable, Hashable, CustomStringConvertible {
    /// Never the token: a logged value says only what it is for.
    public var description: String { "ElevatedToken(action: \(action), expiresAt: \(expiresAt))" }

    public let token: String
    public let action: String
    public let expiresAt: Date

    init(_ answer: StepUpResponse, now: Date = Date()) {
        token = answer.accessToken
        action = answer.action
        expiresAt = now.addingTimeInterval(TimeInterval(answer.expiresIn))
    }
}

/// An error answer from Portvakt: the HTTP status, the OAuth `error` and the `message_id` to show.
public struct PortvaktError: Error, Sendable, Hashable {
    public let status: Int
    public let error: String?
    public let messageID: String?

    /// What the user is told.
    public var message: UserMessage { UserMessage(serverID: messageID) }
    /// The `error` as one of the codes Portvakt speaks; nil for one it does not know.
    public var code: OAuthErrorCode? { error.flatMap(OAuthErrorCode.init(rawValue:)) }
    /// Portvakt's own final no: a 4xx with its `error` (no captive portal's page), not 408 or 429.
    public var isRefusal: Bool { (400..<500).contains(status) && ![408, 429].contains(status) && error != nil }
}

/// Portvakt's HTTP API as the app uses it, over `URLSession` (which also runs on Linux).
///
/// With a ``ProofKey`` (the app and the CLI always have one) every token request, revocation and
/// pushed request carries a DPoP proof (RFC 9449), so the tokens are bound to that key, and every
/// bound access token is sent as `DPoP` with a proof. A `use_dpop_nonce` answer is retried once
/// with the server's new nonce.
public struct PortvaktClient: Sendable, TokenRefresher {
    public let configuration: PortvaktConfiguration
    private let session: URLSession
    /// Signs the proofs; nil sends Bearer tokens (a server without DPoP).
    public let dpop: DPoPSigner?

    /// - Parameters:
    ///   - configuration: Portvakt's address, the app's client id and its redirect URI.
    ///   - session: by default an ephemeral one that follows no redirect (``makeSession()``).
    ///   - proofKey: the DPoP key that binds the tokens; nil sends Bearer tokens.
    public init(configuration: PortvaktConfiguration, session: URLSession = PortvaktClient.makeSession(), proofKey: (any ProofKey)? = nil) {
        self.configuration = configuration
        self.session = session
        dpop = proofKey.map { DPoPSigner(key: $0) }
    }

    /// Ephemeral (no cookies, no cache on disk), and a redirect is answered, not followed: a
    /// request carries the session's token and a proof for one URL, and neither goes on to
    /// wherever a `Location` points.
    public static func makeSession() -> URLSession {
        URLSession(configuration: .ephemeral, delegate: RedirectRefusal(), delegateQueue: nil)
    }

    /// What the app asks for: the person's name, email, and organisations and roles (OIDC Core
    /// §5.4; `organisations` is Portvakt's own scope), the claims its tokens carry.
    static let scope = "openid profile email organisations"

    /// The login in the browser for `method` (S1.1, S2.1): a fresh PKCE S256 challenge, `state`
    /// and `nonce` pushed to Portvakt first (PAR, RFC 9126), so the browser carries only the
    /// `request_uri`; the proof binds the code to the proof key.
    public func authorizationRequest(_ method: LoginMethod, language: Language = .nb) async throws -> AuthorizationRequest {
        let verifier = PKCE.makeVerifier()
        let state = randomToken(bytes: 16)
        let answer = try await perform("POST", "oauth/par", form: [
            ("client_id", configuration.clientID), ("redirect_uri", configuration.redirectURI), ("response_type", "code"),
            ("scope", Self.scope), ("code_challenge", PKCE.challenge(for: verifier)), ("code_challenge_method", "S256"),
            ("state", state), ("nonce", randomToken(bytes: 16)), ("ui_locales", language.rawValue),
            ("idp_hint", method == .bankIDOrder ? LoginMethod.bankID.rawValue : method.rawValue),
        ], as: PushedRequestResponse.self)
        let requestURI = answer.requestURI
        var components = URLComponents(url: url("oauth/authorize"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "client_id", value: configuration.clientID), URLQueryItem(name: "request_uri", value: requestURI)]
        return AuthorizationRequest(url: components.url!, verifier: verifier, state: state)
    }

    /// `authorization_code` with the PKCE verifier.
    public func exchange(code: String, verifier: String) async throws -> TokenSet {
        try await tokens([
            ("grant_type", "authorization_code"), ("client_id", configuration.clientID), ("code", code),
            ("redirect_uri", configuration.redirectURI), ("code_verifier", verifier),
        ])
    }

    /// `refresh_token`; `invalid_grant` means the session is over, anything else is "try later".
    public func refresh(_ refreshToken: String) async throws -> TokenSet {
        do {
            return try await tokens([("grant_type", "refresh_token"), ("client_id", configuration.clientID), ("refresh_token", refreshToken)])
        } catch let error as PortvaktError where error.code == .invalidGrant {
            throw TokenRefreshError.sessionExpired
        } catch {
            throw TokenRefreshError.unavailable
        }
    }

    /// A started BankID order: what the app keeps and opens.
    public struct BankIDOrder: Sendable, Hashable {
        /// Stored under `bankid_session_ref_v1` while the order runs; never logged.
        public let sessionID: String
        public let launchURL: URL
        public let expiresIn: Int
    }

    /// What `collect` said.
    public enum BankIDOrderStatus: Sendable, Hashable {
        case pending(message: String)
        case complete(code: String)
        case failed(UserMessage)
    }

    /// `POST /bankid/orders`, bound to the PKCE challenge of `verifier` (S3.1/S3.2); the launch
    /// link returns to the configuration's ``PortvaktConfiguration/bankIDReturnURL``.
    public func startBankIDOrder(verifier: String, language: Language = .nb) async throws -> BankIDOrder {
        let returnURL = configuration.bankIDReturnURL
        let body = BankIDOrderStartRequest(
            clientID: configuration.clientID, redirectURI: configuration.redirectURI, codeChallenge: PKCE.challenge(for: verifier),
            codeChallengeMethod: "S256", returnURL: returnURL, scope: Self.scope, uiLocales: language.rawValue, dpopJKT: try await dpop?.thumbprint()
        )
        let answer = try await send("POST", "bankid/orders", body, accessToken: nil, as: BankIDOrderStarted.self)
        guard let launch = URL(string: answer.launchURL) else { throw Self.badResponse }
        return BankIDOrder(sessionID: answer.sessionId, launchURL: launch, expiresIn: answer.expiresIn)
    }

    public func collectBankIDOrder(sessionID: String) async throws -> BankIDOrderStatus {
        let answer = try await send("POST", "bankid/orders/collect", BankIDOrderHandle(sessionId: sessionID), accessToken: nil, as: BankIDOrderState.self)
        switch answer.status {
        case "complete":
            guard let code = answer.code else { throw Self.badResponse }
            return .complete(code: code)
        case "pending":
            return .pending(message: answer.message ?? "")
        default:
            return .failed(UserMessage(serverID: answer.messageId))
        }
    }

    /// The current animated QR frame (`qrData`) and, for a terminal, its half-block drawing.
    public func bankIDQRCode(sessionID: String) async throws -> (data: String, text: String) {
        let answer = try await send("POST", "bankid/orders/qr", BankIDOrderHandle(sessionId: sessionID, format: "text"), accessToken: nil, as: BankIDQRFrame.self)
        return (answer.qrData, answer.text ?? "")
    }

    public func cancelBankIDOrder(sessionID: String) async throws {
        _ = try await send("POST", "bankid/orders/cancel", BankIDOrderHandle(sessionId: sessionID), accessToken: nil, as: BankIDOrderState.self)
    }

    /// Ends the session at the server (RFC 7009): the refresh token and its session stop working.
    /// Waits `timeout` seconds at most: a logout without a network keeps the token for later
    /// (``PendingRevocations``) instead of holding the member.
    public func revoke(_ refreshToken: String, timeout: TimeInterval = 10) async throws {
        _ = try await perform("POST", "oauth/revoke", form: [("client_id", configuration.clientID), ("token", refreshToken)], timeout: timeout)
    }

    /// A JSON resource of the app's API (`v1/me`, `v1/activities`, …) as the server sent it.
    public func get(_ path: String, accessToken: String) async throws -> Data {
        try await perform("GET", path, body: nil, accessToken: accessToken)
    }

    /// A JSON resource of the app's API decoded as `type`.
    public func get<Value: Decodable>(_ path: String, as type: Value.Type, accessToken: String) async throws -> Value {
        try Self.decode(type, from: try await get(path, accessToken: accessToken))
    }

    /// A single-use challenge for the device to sign.
    /// An unlock's within ``PortvaktConfiguration/challengeDeadline`` or `URLError(.timedOut)` (it
    /// has an offline way on); a step-up's, which has none, as long as the network takes.
    public func challenge(deviceID: String, purpose: DevicePurpose, action: StepUpAction? = nil, accessToken: String? = nil) async throws -> (challenge: String, audience: String) {
        let answer = try await withinDeadline(purpose == .unlock ? configuration.challengeDeadline : 60) {
            try await send(
                "POST", "v1/devices/\(PercentEncoding.encode(deviceID))/challenges", DeviceChallengeRequest(purpose: purpose.rawValue, action: action?.rawValue),
                accessToken: accessToken, as: DeviceChallengeIssued.self
            )
        }
        return (answer.challenge, answer.audience)
    }

    /// The unlock grant for a signed `unlock` challenge: a new session, within
    /// ``PortvaktConfiguration/unlockDeadline`` or `URLError(.timedOut)`.
    public func unlock(assertion: String) async throws -> TokenSet {
        try await withinDeadline(configuration.unlockDeadline) {
            try await tokens([
                ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("client_id", configuration.clientID), ("assertion", assertion),
            ])
        }
    }

    /// The elevated token for a signed `step-up` challenge.
    public func stepUp(assertion: String, accessToken: String) async throws -> ElevatedToken {
        ElevatedToken(try await send("POST", "v1/step-up", StepUpRequest(assertion: assertion), accessToken: accessToken, as: StepUpResponse.self))
    }

    /// The elevated token for the account's password, entered again (S11.3).
    public func stepUp(_ action: StepUpAction, password: String, accessToken: String) async throws -> ElevatedToken {
        ElevatedToken(
            try await send("POST", "v1/step-up/password", PasswordStepUpRequest(action: action, password: password), accessToken: accessToken, as: StepUpResponse.self)
        )
    }

    /// Any request of the app's API with the session's access token: `Authorization` and, for a
    /// bound token, a DPoP proof for the request's method and URL, whatever the method; one retry
    /// when the server asks for a new nonce. The answer is returned whatever its status.
    public func send(_ request: URLRequest, accessToken: String) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url else { throw URLError(.badURL) }
        var headers: [(String, String)] = []
        for (name, value) in request.allHTTPHeaderFields ?? [:] where !["authorization", "dpop"].contains(name.lowercased()) {
            headers.append((name, value))
        }
        let (data, status, response) = try await exchangeWithResponse(
            request.httpMethod ?? "GET", url, body: request.httpBody, contentType: request.value(forHTTPHeaderField: "Content-Type"),
            accessToken: accessToken, headers: headers
        )
        _ = status
        return (data, response)
    }

    /// Sends one queued write with its idempotency key.
    public func send(_ write: QueuedWrite, accessToken: String) async -> ReplayOutcome {
        guard let (_, status) = try? await exchange(
            write.method, url(write.path), body: write.body, contentType: "application/json", accessToken: accessToken,
            headers: [("Idempotency-Key", write.id)]
        ) else { return .unavailable }
        switch status {
        case 200..<300: return .sent
        case 401: return write.stepUp != nil ? .needsStepUp : .unavailable
        case 408, 429, 500...: return .unavailable
        default: return .refused(status: status)
        }
    }

    // MARK: - HTTP

    private func tokens(_ form: [(String, String)]) async throws -> TokenSet {
        let answer = try await perform("POST", "oauth/token", form: form, as: TokenResponse.self)
        let now = Date()
        return TokenSet(
            accessToken: answer.accessToken, refreshToken: answer.refreshToken, expiresAt: now.addingTimeInterval(TimeInterval(answer.expiresIn)),
            sessionEndsAt: answer.sessionExpiresIn.map { now.addingTimeInterval(TimeInterval($0)) },
            deviceTrustEndsAt: answer.deviceTrustExpiresIn.map { now.addingTimeInterval(TimeInterval($0)) }
        )
    }

    /// A JSON body to the API or the order endpoints, and its answer decoded as `type`.
    func send<Value: Decodable>(_ method: String, _ path: String, _ body: some Encodable, accessToken: String?, as type: Value.Type) async throws -> Value {
        try Self.decode(type, from: try await perform(method, path, body: try JSONEncoder().encode(body), accessToken: accessToken))
    }

    /// A form to one of the authorization server's endpoints, with a DPoP proof; the answer decoded as `type`.
    private func perform<Value: Decodable>(_ method: String, _ path: String, form: [(String, String)], as type: Value.Type) async throws -> Value {
        try Self.decode(type, from: try await perform(method, path, form: form))
    }

    /// A form to one of the authorization server's endpoints, with a DPoP proof.
    private func perform(_ method: String, _ path: String, form: [(String, String)], timeout: TimeInterval? = nil) async throws -> Data {
        let body = Data(form.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&").utf8)
        let form = "application/x-www-form-urlencoded"
        let (data, status) = try await exchange(method, url(path), body: body, contentType: form, accessToken: nil, proof: true, timeout: timeout)
        return try Self.answer(data, status: status)
    }

    func perform(_ method: String, _ path: String, body: Data?, accessToken: String?) async throws -> Data {
        let (data, status) = try await exchange(method, url(path), body: body, contentType: body == nil ? nil : "application/json", accessToken: accessToken)
        return try Self.answer(data, status: status)
    }

    /// The body of a 2xx answer; any other is a ``PortvaktError`` with the server's error and message.
    static func answer(_ data: Data, status: Int) throws -> Data {
        guard (200..<300).contains(status) else {
            let refusal = try? JSONDecoder().decode(ErrorResponse.self, from: data)
            throw PortvaktError(status: status, error: refusal?.error, messageID: refusal?.messageID)
        }
        return data
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw badResponse
        }
    }

    static let badResponse = PortvaktError(status: 502, error: OAuthErrorCode.badResponse.rawValue, messageID: nil)

    /// One request; a bound access token goes as `DPoP` with a proof (`proof` adds one without a
    /// token). Asked for a new nonce, it signs again once with it.
    private func exchange(
        _ method: String, _ url: URL, body: Data?, contentType: String?, accessToken: String?, proof: Bool = false, headers: [(String, String)] = [], timeout: TimeInterval? = nil
    ) async throws -> (Data, Int) {
        let (data, status, _) = try await exchangeWithResponse(method, url, body: body, contentType: contentType, accessToken: accessToken, proof: proof, headers: headers, timeout: timeout)
        return (data, status)
    }

    private func exchangeWithResponse(
        _ method: String, _ url: URL, body: Data?, contentType: String?, accessToken: String?, proof: Bool = false, headers: [(String, String)] = [], timeout: TimeInterval? = nil
    ) async throws -> (Data, Int, HTTPURLResponse) {
        let bound = dpop != nil && accessToken.map(AccessTokenBinding.isBound) == true
        for attempt in 1...2 {
            var request = URLRequest(url: url)
            if let timeout { request.timeoutInterval = timeout }
            request.httpMethod = method
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            if let accessToken { request.setValue("\(bound ? "DPoP" : "Bearer") \(accessToken)", forHTTPHeaderField: "Authorization") }
            if let dpop, proof || bound {
                request.setValue(try await dpop.proof(method: method, url: url, accessToken: bound ? accessToken : nil), forHTTPHeaderField: "DPoP")
            }
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
            await dpop?.remember(nonce: http.value(forHTTPHeaderField: "DPoP-Nonce"))
            let status = http.statusCode
            if attempt == 1, dpop != nil, Self.asksForNonce(data, status: status, challenge: http.value(forHTTPHeaderField: "WWW-Authenticate")) {
                continue
            }
            return (data, status, http)
        }
        preconditionFailure("the loop returns on its second pass")
    }

    /// `use_dpop_nonce` (RFC 9449 §8): as the token endpoint's error, or a resource's challenge.
    static func asksForNonce(_ data: Data, status: Int, challenge: String?) -> Bool {
        if status == 401 { return challenge?.contains("error=\"\(OAuthErrorCode.useDPoPNonce.rawValue)\"") == true }
        guard status == 400 else { return false }
        return (try? JSONDecoder().decode(ErrorResponse.self, from: data)).flatMap { OAuthErrorCode(rawValue: $0.error) } == .useDPoPNonce
    }

    /// `path` (with any query) under the base URL.
    private func url(_ path: String) -> URL {
        var base = configuration.baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + "/" + path) ?? configuration.baseURL
    }
}

/// Hands a redirect back to the caller as the answer instead of following it.
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
