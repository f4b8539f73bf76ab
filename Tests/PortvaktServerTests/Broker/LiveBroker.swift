import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PortvaktCore
@testable import PortvaktServer
import PortvaktStorage
import PortvaktTestSupport
import HummingbirdTesting
import ServiceLifecycle
import Synchronization
import Testing

/// A real portvakt-server (broker and embedded sandbox) on SQLite or PostgreSQL, and a browser-like
/// HTTP client that does not follow redirects, so each hop of a login can be checked. The browser
/// reaches the server in process (its router, no socket) unless a test asks for a loopback port:
/// what it checks is about sockets, connections or several servers (issue 48 item 2).
struct LiveBroker: Sendable {
    static let adminToken = "test-sandbox-admin-token-0123456789"

    /// How the browser reaches the server.
    enum Transport: Sendable {
        /// The server's router, in process: the server listens on no port.
        case inProcess
        /// A loopback port the server listens on.
        case socket
    }

    let baseURL: String
    let http: any OutboundHTTP
    let logs: LogSink
    let configuration: ServerConfiguration
    /// The broker's clock: the system's, plus however far a test has moved it.
    let clock: TestClock
    /// Every route the router serves, as `METHOD /path/{parameter}`.
    let routes: [String]
    /// What each route was declared with; nil for a server this broker did not build.
    var declared: RouteTable? = nil
    /// The login cookies this client keeps, as the browser that starts the logins would.
    var loginCookies = LoginCookieJar()

    /// Starts a server with `settings` on a new database of `kind`, runs `body`, stops it.
    static func run(
        _ kind: DatabaseKind, settings: [String: String] = [:], over transport: Transport = .inProcess,
        _ body: @escaping @Sendable (LiveBroker) async throws -> Void
    ) async throws {
        try await TestDatabase.withServerDatabase(kind) { databaseURL in
            try await serve(databaseURL: databaseURL, settings: settings, over: transport, body)
        }
    }

    /// Starts a server on `databaseURL` (nil: SQLite in the data directory), runs `body`, stops it.
    /// Two calls with the same database and `PORTVAKT_DATA_DIR` are one server restarted.
    static func serve(
        databaseURL: String?, settings: [String: String], over transport: Transport = .inProcess,
        _ body: @escaping @Sendable (LiveBroker) async throws -> Void
    ) async throws {
        // The suites written before DPoP and PAR drive the app's client as an old app version
        // would (`PORTVAKT_LEGACY_CLIENTS`); SenderConstraintTests and the CLI's end-to-end
        // suite run with the default, which requires both.
        var environment = [
            "PORTVAKT_PORT": "0", "PORTVAKT_BCRYPT_COST": "4", "PORTVAKT_SANDBOX_ADMIN_TOKEN": adminToken, "PORTVAKT_LOG_LEVEL": "trace",
            "PORTVAKT_LEGACY_CLIENTS": "no.portvakt.app,portvakt-cli",
        ]
        environment["DATABASE_URL"] = databaseURL
        // In process the address is the one the browser uses: its Host, DPoP's htu, the redirects' origin.
        if transport == .inProcess { environment["PORTVAKT_PUBLIC_URL"] = inProcessURL }
        let configuration = try TestServer.configuration(environment.merging(settings) { $1 })
        let logs = LogSink()
        let logger = TestServer.logger(into: logs)
        let (started, continuation) = AsyncStream<String>.makeStream()
        let clock = TestClock()
        var routes: [String] = []
        var declared: RouteTable?
        let inProcess = InProcessHTTP()
        let app = try await PortvaktApplication.build(
            configuration: configuration, logger: logger, clock: { clock.now }, onRoutes: { routes = $0; declared = $1 }, inProcess: inProcess
        ) { url in
            continuation.yield(url)
        }
        if transport == .inProcess {
            let browser = InProcessBrowser(server: inProcess, origin: configuration.publicURL)
            let broker = LiveBroker(
                baseURL: configuration.publicURL, http: browser, logs: logs, configuration: configuration, clock: clock, routes: routes, declared: declared
            )
            // The router framework runs the server's services and start-up work, and no listener.
            try await app.test(.router) { _ in try await body(broker) }
            return
        }
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        try await withThrowingTaskGroup(of: Void.self) { group in
            let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
            group.addTask {
                // A server that fails to start (a taken port, a database away) ends the wait below.
                defer { continuation.finish() }
                try await services.run()
            }
            var iterator = started.makeAsyncIterator()
            guard let url = await iterator.next() else {
                try? await http.shutdown()
                try await group.waitForAll()
                throw CancellationError()
            }
            let broker = LiveBroker(
                baseURL: url, http: NetworkHTTP(client: http), logs: logs, configuration: configuration, clock: clock, routes: routes, declared: declared
            )
            do {
                try await body(broker)
            } catch {
                await services.triggerGracefulShutdown()
                try? await http.shutdown()
                throw error
            }
            await services.triggerGracefulShutdown()
            try await http.shutdown()
            try await group.waitForAll()
        }
    }

    // MARK: - HTTP

    struct Reply: Sendable {
        let status: Int
        /// One value a name; `Set-Cookie`, which may come several times, is in `setCookies`.
        let headers: [String: String]
        /// Every `Set-Cookie` line, in order.
        let setCookies: [String]
        let body: String

        /// The `Set-Cookie` line that sets `name` (or `__Host-name`); nil when none does.
        func setCookie(_ name: String) -> String? {
            setCookies.first { $0.hasPrefix(name + "=") || $0.hasPrefix("__Host-" + name + "=") }
        }

        /// `name=value` of the cookie `name` as the browser sends it back; nil when none is set.
        func cookie(_ name: String) -> String? { setCookie(name).map { String($0.prefix { $0 != ";" }) } }

        var location: String? { headers["location"] }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:] }
        func string(_ key: String) -> String? { json[key] as? String }
    }

    func send(
        _ url: String, method: HTTPMethod = .GET, form: [(String, String)]? = nil, raw: (contentType: String, body: Data)? = nil,
        headers: [(String, String)] = [], asAnotherBrowser: Bool = false
    ) async throws -> Reply {
        let url = url.hasPrefix("http") ? url : baseURL + url
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if !asAnotherBrowser { loginCookies.add(to: &request.headers, for: url) }
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form.map { "\($0.0)=\(FormFields.encode($0.1))" }.joined(separator: "&")))
        }
        if let raw {
            request.headers.add(name: "Content-Type", value: raw.contentType)
            request.body = .bytes(ByteBuffer(data: raw.body))
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        if !asAnotherBrowser { loginCookies.keep(response.headers["set-cookie"]) }
        let body = try await response.body.collect(upTo: 4 * 1024 * 1024)
        var fields: [String: String] = [:]
        for header in response.headers where header.name.lowercased() != "set-cookie" { fields[header.name.lowercased()] = header.value }
        return Reply(status: Int(response.status.code), headers: fields, setCookies: response.headers["set-cookie"], body: String(buffer: body))
    }

    func postJSON(_ path: String, _ body: [String: Any], contentType: String = "application/json") async throws -> Reply {
        try await send(path, method: .POST, raw: (contentType, try JSONSerialization.data(withJSONObject: body)), headers: [("Accept", "application/json")])
    }

    func token(_ form: [(String, String)]) async throws -> Reply {
        try await send("/oauth/token", method: .POST, form: form)
    }

    func setFaults(_ faults: [String], for provider: String) async throws {
        var request = HTTPClientRequest(url: baseURL + "/sandbox/admin/faults/\(provider)")
        request.method = .PUT
        request.headers.add(name: "Authorization", value: "Bearer \(Self.adminToken)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: ["faults": faults, "slow_seconds": 8])))
        let response = try await http.execute(request, timeout: .seconds(10))
        #expect(response.status == .ok || response.status == .noContent)
    }

    /// The store behind the server, opened separately with the server's keys, for checking what was written.
    func withStore<R: Sendable>(_ body: @escaping @Sendable (PortvaktStore) async throws -> R) async throws -> R {
        try await PortvaktApplication.withStore(configuration: configuration, logger: TestDatabase.logger) { store, _ in try await body(store) }
    }
}

extension LiveBroker {
    /// The server's address when the browser reaches it in process.
    /// An IP address, as a `dev` server on a loopback port names itself; passkey suites set `localhost`.
    static let inProcessURL = "http://127.0.0.1"
}

/// To the server's router, in process; only the server's own address answers there. (Over a
/// socket the browser is the server's own ``NetworkHTTP``.)
struct InProcessBrowser: OutboundHTTP {
    let server: InProcessHTTP
    let origin: String

    struct NotThisServer: Error, CustomStringConvertible {
        let url: String
        var description: String { "\(url) is not this server's address; a test that needs another listener runs over: .socket" }
    }

    func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse {
        guard request.url == origin || request.url.hasPrefix(origin + "/") || request.url.hasPrefix(origin + "?") else { throw NotThisServer(url: request.url) }
        return try await server.answer(request, timeout: timeout)
    }
}

/// A clock a test moves forward; it starts at the system time and runs with it.
final class TestClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    var now: Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    func advance(by seconds: TimeInterval) {
        offset.withLock { $0 += seconds }
    }
}

/// What the app receives at its redirect URI.
struct AppCallback: Sendable {
    let fields: [String: String]
    var code: String? { fields["code"] }
    var error: String? { fields["error"] }
    var messageID: String? { fields["message_id"] }

    init(location: String?) {
        var fields: [String: String] = [:]
        if let location, let query = location.split(separator: "?", maxSplits: 1).dropFirst().first {
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                fields[parts[0]] = parts.count > 1 ? parts[1] : ""
            }
        }
        self.fields = fields
    }
}

/// The app's side of one login: PKCE verifier, state and nonce.
struct AppLogin: Sendable {
    var clientID = "no.portvakt.app"
    var redirectURI = "no.portvakt.app:/oauth/callback"
    /// What the app asks for (PortvaktClient.scope): every claim.
    var scope = "openid profile email organisations"
    /// false: no code_challenge (a confidential client that sends a nonce may, RFC 9700 §2.1.1).
    var usesPKCE = true
    let verifier = PKCE.makeVerifier()
    let state = randomToken(bytes: 12)
    let nonce = randomToken(bytes: 12)

    func authorizeURL(method: String?, extra: [(String, String)] = []) -> String {
        var fields = [("client_id", clientID), ("redirect_uri", redirectURI), ("response_type", "code"), ("scope", scope), ("state", state), ("nonce", nonce)]
        if usesPKCE { fields += [("code_challenge", PKCE.challenge(for: verifier)), ("code_challenge_method", "S256")] }
        if let method { fields.append(("idp_hint", method)) }
        return "/oauth/authorize?" + (fields + extra).map { "\($0.0)=\(FormFields.encode($0.1))" }.joined(separator: "&")
    }

    /// - Parameters:
    ///   - verifier: the code_verifier to send instead of this login's own (sent only when it uses PKCE).
    ///   - extra: more form fields, such as a confidential client's secret.
    func redeem(_ code: String, at broker: LiveBroker, verifier: String? = nil, clientID: String? = nil, extra: [(String, String)] = []) async throws -> LiveBroker.Reply {
        var form = [("grant_type", "authorization_code"), ("client_id", clientID ?? self.clientID), ("code", code), ("redirect_uri", redirectURI)]
        if let verifier = verifier ?? (usesPKCE ? self.verifier : nil) { form.append(("code_verifier", verifier)) }
        return try await broker.token(form + extra)
    }
}

extension LiveBroker {
    /// The browser's trip: Portvakt → provider (the sandbox user approves or cancels) → Portvakt's
    /// callback → the app. Returns the provider's callback URL too, for replay tests.
    func providerLogin(_ login: AppLogin, provider: String, user: String, action: String = "approve") async throws -> (app: AppCallback, callbackURL: String?) {
        let start = try await send(login.authorizeURL(method: provider))
        #expect(start.status == 303)
        guard let providerURL = start.location else { return (AppCallback(location: nil), nil) }
        guard providerURL.contains("/sandbox/") else { return (AppCallback(location: providerURL), nil) }
        let atProvider = try await send(providerURL + "&sandbox_user=\(user)&sandbox_action=\(action)")
        guard let callbackURL = atProvider.location else { return (AppCallback(location: nil), nil) }
        var back = try await send(callbackURL)
        // S15: no member record; the person says they are not a member (MembershipClaimTests claims one).
        if back.status == 200, let claim = MembershipClaimTests.hiddenField("claim", in: back.body) {
            back = try await send("/oauth/claim/cancel", method: .POST, form: [("claim", claim)], headers: [("Cookie", MembershipClaimTests.cookie(of: back))])
        }
        #expect(back.status == 303, "callback answered \(back.status): \(back.body.prefix(200))")
        return (AppCallback(location: back.location), callbackURL)
    }

    /// A complete login and code redemption; returns the token response.
    func tokens(provider: String, user: String) async throws -> [String: Any] {
        let login = AppLogin()
        let (app, _) = try await providerLogin(login, provider: provider, user: user)
        let code = try #require(app.code)
        let reply = try await login.redeem(code, at: self)
        #expect(reply.status == 200, "\(reply.body)")
        return reply.json
    }

    func refresh(_ token: String, clientID: String = "no.portvakt.app") async throws -> Reply {
        try await self.token([("grant_type", "refresh_token"), ("client_id", clientID), ("refresh_token", token)])
    }

    /// The claims of a JWT, unverified (the tests verify signatures separately).
    static func claims(_ jwt: String) -> [String: Any] {
        let parts = jwt.split(separator: ".")
        guard parts.count == 3 else { return [:] }
        return (Data(base64URLEncoded: String(parts[1])).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }) ?? [:]
    }
}

/// The cookies that bind a login to its browser (`portvakt_login_…`): LiveBroker keeps them and
/// sends them to the callbacks, as a browser would, so every login a test drives comes back to
/// the browser that started it. Other cookies (portal, claim) the tests pass by hand.
final class LoginCookieJar: Sendable {
    private let cookies = Mutex<[String: String]>([:])

    func keep(_ setCookies: [String]) {
        for setCookie in setCookies {
            let pair = setCookie.prefix { $0 != ";" }.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard pair.count == 2, pair[0].hasPrefix("portvakt_login_") || pair[0].hasPrefix("__Host-portvakt_login_") else { continue }
            cookies.withLock { $0[pair[0]] = pair[1] }
        }
    }

    func add(to headers: inout HTTPHeaders, for url: String) {
        guard let path = URL(string: url)?.path, path.hasPrefix("/oauth/callback") else { return }
        let jar = cookies.withLock { $0 }.map { "\($0.key)=\($0.value)" }.sorted()
        guard !jar.isEmpty else { return }
        let given = headers["Cookie"]
        headers.remove(name: "Cookie")
        headers.add(name: "Cookie", value: (given + jar).joined(separator: "; "))
    }
}
