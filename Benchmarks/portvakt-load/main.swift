// Load generator for BENCHMARKS.md: logs in through the sandbox over HTTP like the app's browser
// would, then rotates refresh tokens from many concurrent sessions against a live server, and
// prints throughput and HDR-histogram latencies.
import ArgumentParser
import AsyncHTTPClient
import Crypto
import Foundation
import Histogram
import NIOCore
import NIOHTTP1
import PortvaktCore
import Synchronization

@main
struct PortvaktLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "portvakt-load",
        abstract: "Measure whole sandbox logins and refresh-token rotations against a running portvakt-server."
    )

    @Option(help: "The server's base URL.") var url = "http://127.0.0.1:8080"
    @Option(help: "Concurrent sessions refreshing at once.") var concurrency = 16
    @Option(help: "Seconds of refreshing.") var duration = 10
    @Option(help: "Whole logins to time (at least one per concurrent session is made anyway).") var logins = 50
    @Option(help: "Sandbox provider: vipps or bankid.") var provider = "vipps"
    @Option(help: "Sandbox test user.") var user = "kari"
    @Option(help: "BankID order starts to time (each cancelled after), 0 for none.") var orders = 0
    @Option(help: "Biometric unlocks to time one by one, then unlock for --duration seconds at --concurrency; 0 for none.") var unlocks = 0
    @Flag(help: "As the app does: push the login (PAR) and bind the tokens to a DPoP key, a proof with every token request.") var dpop = false
    @Flag(help: "Stop after the unlocks: no logins or rotations.") var unlocksOnly = false
    @Option(help: ArgumentHelp(
        "The shutdown test: unlock on each device until the server stops answering (a lost connection or a 503 ends a device's run, any other answer but a new session fails it), then write each device's last acknowledged session's refresh token to this file (JSON: acknowledged, maybe_replaced, ended_at); FILE.started appears at the first unlock.",
        valueName: "FILE"
    )) var untilServerStops: String?

    func run() async throws {
        var poolConfiguration = HTTPClient.Configuration.ConnectionPool()
        poolConfiguration.concurrentHTTP1ConnectionsPerHostSoftLimit = max(concurrency, 8)
        let http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .seconds(30)), connectionPool: poolConfiguration)
        )
        let client = LoadClient(http: http, baseURL: url, proofs: dpop ? Proofs() : nil)
        print("tokens: \(dpop ? "DPoP-bound (PAR + a proof per token request)" : "Bearer")")
        do {
            try await measure(client)
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }

    private func measure(_ client: LoadClient) async throws {
        if orders > 0 {
            var startLatency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
            for _ in 0..<orders {
                let started = ContinuousClock.now
                let session = try await client.startOrder()
                startLatency.record(microseconds(since: started))
                try await client.cancelOrder(session)
            }
            print(report("BankID order start (app → Portvakt → sandbox order API → Portvakt), sequential", startLatency, count: orders, seconds: nil))
        }
        if unlocks > 0 {
            try await measureUnlocks(client)
            if unlocksOnly { return }
        }
        if let file = untilServerStops {
            try await unlockUntilServerStops(client, into: file)
            return
        }
        var loginLatency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        var tokens: [String] = []
        for _ in 0..<max(logins, concurrency) {
            let started = ContinuousClock.now
            tokens.append(try await client.login(provider: provider, user: user))
            loginLatency.record(microseconds(since: started))
        }
        print(report("whole \(provider) sandbox login (authorize → provider → callback → token), sequential", loginLatency, count: tokens.count, seconds: nil))

        let first = tokens
        let (rotations, seconds) = try await repeatedly(from: { first[$0] }) { token in try await client.refresh(token) }
        print(report("refresh-token rotations, concurrency \(concurrency)", rotations, count: Int(rotations.totalCount), seconds: seconds))
    }

    /// Unlocks from `--concurrency` devices until the server goes away (SIGTERM or SIGKILL), so
    /// that the shutdown test can check that every unlock acknowledged before was committed.
    /// Writes `{"acknowledged": [refresh token], "maybe_replaced": [refresh token], "ended_at":
    /// [seconds since 1970]}`: a device whose last grant got no answer may have had its session
    /// replaced by it (committed, then killed), so its token is "maybe replaced".
    private func unlockUntilServerStops(_ client: LoadClient, into file: String) async throws {
        let devices = try await registerDevices(client)
        let book = UnlockBook()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for device in devices {
                group.addTask {
                    // Only the server's going away ends a run; any other answer fails it.
                    func ended(grantUnanswered: Bool) {
                        book.runs.withLock { runs in
                            runs[device.id, default: UnlockBook.Run()].grantUnanswered = grantUnanswered
                            runs[device.id, default: UnlockBook.Run()].endedAt = Date().timeIntervalSince1970
                        }
                    }
                    while true {
                        let challenge: String
                        do {
                            challenge = try await client.unlockChallenge(device.id)
                        } catch let refused as LoadClient.Failure {
                            throw refused
                        } catch {
                            return ended(grantUnanswered: false)
                        }
                        let session: String
                        do {
                            session = try await client.unlock(deviceID: device.id, challenge: challenge, key: device.key)
                        } catch let refused as LoadClient.Failure {
                            throw refused
                        } catch {
                            return ended(grantUnanswered: true)
                        }
                        book.runs.withLock { $0[device.id, default: UnlockBook.Run()].session = session }
                        if book.count.add(1, ordering: .relaxed).newValue == 1 { FileManager.default.createFile(atPath: file + ".started", contents: nil) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let all = book.runs.withLock { Array($0.values) }
        let summary: [String: [Any]] = [
            "acknowledged": all.filter { !$0.grantUnanswered }.compactMap(\.session),
            "maybe_replaced": all.filter(\.grantUnanswered).compactMap(\.session),
            "ended_at": all.map(\.endedAt),
        ]
        try JSONSerialization.data(withJSONObject: summary).write(to: URL(fileURLWithPath: file))
        print("biometric unlocks until the server stopped: \(book.count.load(ordering: .relaxed)) acknowledged on \(devices.count) devices")
    }

    /// Up to five devices for each of four test people (the server's limit), `--concurrency` in all.
    private func registerDevices(_ client: LoadClient) async throws -> [UnlockDevice] {
        var devices: [UnlockDevice] = []
        for person in ["kari", "ola", "ingrid", "per"] where devices.count < concurrency {
            let login = try await client.loginTokens(provider: provider, user: person)
            for _ in 0..<min(5, concurrency - devices.count) {
                let key = P256.Signing.PrivateKey()
                let id = try await client.registerDevice(DevicePublicKey(key.publicKey).jwk, accessToken: login.access)
                devices.append(UnlockDevice(id: id, key: key, owner: person))
            }
        }
        return devices
    }

    /// Registers software P-256 keys after logins, then times what the app does after Face ID
    /// succeeds: fetch a challenge, sign it, redeem the unlock grant for a new session. Each
    /// concurrent worker unlocks its own device, as phones do (up to five devices for each of
    /// four test people: the server's limit); the devices are removed at the end.
    private func measureUnlocks(_ client: LoadClient) async throws {
        let devices = try await registerDevices(client)
        var unlock = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        var grant = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        for _ in 0..<unlocks {
            let started = ContinuousClock.now
            let challenge = try await client.unlockChallenge(devices[0].id)
            let signed = ContinuousClock.now
            try await client.unlock(deviceID: devices[0].id, challenge: challenge, key: devices[0].key)
            grant.record(microseconds(since: signed))
            unlock.record(microseconds(since: started))
        }
        print(report("biometric unlock (challenge + sign + grant → new session), sequential", unlock, count: unlocks, seconds: nil))
        print(report("  of which the unlock grant (verify, new session, tokens)", grant, count: unlocks, seconds: nil))

        let all = devices
        let (unlocked, seconds) = try await repeatedly(from: { all[$0 % all.count] }) { device in
            let challenge = try await client.unlockChallenge(device.id)
            try await client.unlock(deviceID: device.id, challenge: challenge, key: device.key)
            return device
        }
        print(report(
            "biometric unlocks (challenge + grant), concurrency \(concurrency) on \(devices.count) devices", unlocked,
            count: Int(unlocked.totalCount), seconds: seconds
        ))
        // A fresh login per owner: the first one's access token may have expired during a long run.
        for (owner, owned) in Dictionary(grouping: devices, by: \.owner) {
            let login = try await client.loginTokens(provider: provider, user: owner)
            for device in owned { try await client.removeDevice(device.id, accessToken: login.access) }
        }
    }

    /// Runs `--concurrency` workers for `--duration` seconds, each repeating `operation` on its
    /// own state (worker `n` starts from `initial(n)`); returns all latencies and the seconds taken.
    private func repeatedly<State: Sendable>(
        from initial: (_ worker: Int) -> State, _ operation: @escaping @Sendable (State) async throws -> State
    ) async throws -> (Histogram<UInt64>, Double) {
        let deadline = ContinuousClock.now + .seconds(duration)
        let started = ContinuousClock.now
        var total = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        try await withThrowingTaskGroup(of: Histogram<UInt64>.self) { group in
            for worker in 0..<concurrency {
                let start = initial(worker)
                group.addTask {
                    var state = start
                    var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
                    while ContinuousClock.now < deadline {
                        let sent = ContinuousClock.now
                        state = try await operation(state)
                        histogram.record(microseconds(since: sent))
                    }
                    return histogram
                }
            }
            for try await histogram in group { total.add(histogram) }
        }
        let elapsed = ContinuousClock.now - started
        return (total, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    private func report(_ title: String, _ histogram: Histogram<UInt64>, count: Int, seconds: Double?) -> String {
        let ms = { (value: UInt64) in String(format: "%.2f ms", Double(value) / 1000) }
        let rate = seconds.map { String(format: "  %.0f/s over %.1f s", Double(count) / $0, $0) } ?? ""
        return "\(title): \(count) done\(rate)  p50 \(ms(histogram.valueAtPercentile(50)))  p90 \(ms(histogram.valueAtPercentile(90)))  p99 \(ms(histogram.valueAtPercentile(99)))  max \(ms(histogram.max))"
    }
}

private func microseconds(since start: ContinuousClock.Instant) -> UInt64 {
    let elapsed = ContinuousClock.now - start
    return UInt64(elapsed.components.seconds) * 1_000_000 + UInt64(elapsed.components.attoseconds / 1_000_000_000_000)
}

/// What each device's unlocks until the server stopped got: its last session, whether its last
/// grant went unanswered, when it stopped.
final class UnlockBook: Sendable {
    struct Run: Sendable {
        var session: String?
        var grantUnanswered = false
        var endedAt = 0.0
    }

    let runs = Mutex<[String: Run]>([:])
    let count = Atomic(0)
}

/// The app's and its browser's side of the protocol, nothing more.
/// A device the load generator registered: its key stays here, as on a phone.
struct UnlockDevice: Sendable {
    let id: String
    let key: P256.Signing.PrivateKey
    /// The test person whose device it is.
    let owner: String
}

struct LoadClient: Sendable {
    let http: HTTPClient
    let baseURL: String
    /// With DPoP: the key every session of this run is bound to, and the server's nonce.
    let proofs: Proofs?

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// 503: the server is draining or its database away (not a refusal of the request itself).
    struct Unavailable: Error {}

    func login(provider: String, user: String) async throws -> String {
        try await loginTokens(provider: provider, user: user).refresh
    }

    func loginTokens(provider: String, user: String) async throws -> (access: String, refresh: String) {
        let verifier = Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }).base64URL
        let challenge = Data(SHA256.hash(data: Data(verifier.utf8))).base64URL
        let state = Data((0..<12).map { _ in UInt8.random(in: .min ... .max) }).base64URL
        let redirect = "no.portvakt.app:/oauth/callback"
        var authorize = "\(baseURL)/oauth/authorize?client_id=no.portvakt.app&redirect_uri=\(encode(redirect))&response_type=code"
            + "&scope=openid&code_challenge=\(challenge)&code_challenge_method=S256&state=\(state)&idp_hint=\(provider)"
        if proofs != nil {
            let pushed = try await post("/oauth/par", [
                ("client_id", "no.portvakt.app"), ("redirect_uri", redirect), ("response_type", "code"), ("scope", "openid"),
                ("code_challenge", challenge), ("code_challenge_method", "S256"), ("state", state), ("idp_hint", provider),
            ])
            guard let requestURI = pushed["request_uri"] as? String else { throw Failure(description: "PAR failed: \(pushed)") }
            authorize = "\(baseURL)/oauth/authorize?client_id=no.portvakt.app&request_uri=\(encode(requestURI))"
        }
        let (providerURL, binding) = try await redirection(of: authorize)
        let callback = try await location(of: providerURL + "&sandbox_user=\(user)&sandbox_action=approve")
        let app = try await location(of: callback, cookie: binding)
        guard let code = URLComponents(string: app)?.queryItems?.first(where: { $0.name == "code" })?.value else {
            throw Failure(description: "no code in the app redirect: \(app.prefix(200))")
        }
        let tokens = try await post("/oauth/token", [
            ("grant_type", "authorization_code"), ("client_id", "no.portvakt.app"), ("code", code),
            ("redirect_uri", redirect), ("code_verifier", verifier),
        ])
        guard let access = tokens["access_token"] as? String, let refresh = tokens["refresh_token"] as? String else {
            throw Failure(description: "no tokens: \(tokens)")
        }
        return (access, refresh)
    }

    /// `POST /v1/devices`; returns the device id.
    func registerDevice(_ jwk: [String: String], accessToken: String) async throws -> String {
        let body = try JSONSerialization.data(withJSONObject: [
            "name": "portvakt-load", "platform": "linux", "biometric_kind": "fingerprint", "public_key": jwk,
        ] as [String: Any])
        let answer = try await post("/v1/devices", contentType: "application/json", body: ByteBuffer(bytes: body), bearer: accessToken)
        guard let id = answer["id"] as? String else { throw Failure(description: "device registration failed: \(answer)") }
        return id
    }

    func removeDevice(_ id: String, accessToken: String) async throws {
        var request = HTTPClientRequest(url: baseURL + "/v1/devices/\(id)")
        request.method = .DELETE
        if let proofs {
            request.headers.add(name: "DPoP", value: try proofs.proof("DELETE", baseURL + "/v1/devices/\(id)", accessToken: accessToken))
            request.headers.add(name: "Authorization", value: "DPoP \(accessToken)")
        } else {
            request.headers.add(name: "Authorization", value: "Bearer \(accessToken)")
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1024 * 1024)
        guard (200..<300).contains(response.status.code) else { throw Failure(description: "removing a device answered \(response.status.code)") }
    }

    func unlockChallenge(_ deviceID: String) async throws -> String {
        let answer = try await postJSON("/v1/devices/\(deviceID)/challenges", ["purpose": "unlock"])
        guard let challenge = answer["challenge"] as? String else { throw Failure(description: "no challenge: \(answer)") }
        return challenge
    }

    /// - Returns: the new session's refresh token.
    @discardableResult
    func unlock(deviceID: String, challenge: String, key: P256.Signing.PrivateKey) async throws -> String {
        let assertion = try DeviceAssertion(deviceID: deviceID, audience: baseURL, challenge: challenge, purpose: .unlock, issuedAt: Date())
            .compact(signedBy: key)
        let tokens = try await post("/oauth/token", [
            ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("client_id", "no.portvakt.app"), ("assertion", assertion),
        ])
        guard let refresh = tokens["refresh_token"] as? String else { throw Failure(description: "unlock failed: \(tokens)") }
        return refresh
    }

    func refresh(_ token: String) async throws -> String {
        let tokens = try await post("/oauth/token", [("grant_type", "refresh_token"), ("client_id", "no.portvakt.app"), ("refresh_token", token)])
        guard let refresh = tokens["refresh_token"] as? String else { throw Failure(description: "refresh failed: \(tokens)") }
        return refresh
    }

    /// `POST /bankid/orders` as the app; returns the order's session id.
    func startOrder() async throws -> String {
        let challenge = Data(SHA256.hash(data: Data(UUID().uuidString.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let answer = try await postJSON("/bankid/orders", [
            "client_id": "no.portvakt.app", "redirect_uri": "no.portvakt.app:/oauth/callback",
            "code_challenge": challenge, "code_challenge_method": "S256",
        ])
        guard let session = answer["sessionId"] as? String else { throw Failure(description: "order start failed: \(answer)") }
        return session
    }

    func cancelOrder(_ session: String) async throws {
        _ = try await postJSON("/bankid/orders/cancel", ["sessionId": session])
    }

    private func postJSON(_ path: String, _ body: [String: String]) async throws -> [String: Any] {
        try await post(path, contentType: "application/json", body: ByteBuffer(bytes: try JSONEncoder().encode(body)))
    }

    private func location(of url: String, cookie: String? = nil) async throws -> String {
        try await redirection(of: url, cookie: cookie).location
    }

    /// Where `url` redirects, and the cookie it sets (the login's browser binding), sent with `cookie`.
    private func redirection(of url: String, cookie: String? = nil) async throws -> (location: String, cookie: String?) {
        var request = HTTPClientRequest(url: url)
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        let response = try await http.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1024 * 1024)
        guard let location = response.headers.first(name: "location") else {
            throw Failure(description: "\(url.prefix(80)) answered \(response.status.code) without a redirect")
        }
        let setCookie = response.headers.first(name: "set-cookie").map { String($0.prefix { $0 != ";" }) }
        return (location.hasPrefix("/") ? baseURL + location : location, setCookie)
    }

    private func post(_ path: String, _ fields: [(String, String)]) async throws -> [String: Any] {
        let form = fields.map { "\($0.0)=\(encode($0.1))" }.joined(separator: "&")
        return try await post(path, contentType: "application/x-www-form-urlencoded", body: ByteBuffer(string: form))
    }

    /// A POST; with DPoP a proof for it (and `ath` with a token), once more on `use_dpop_nonce`.
    private func post(_ path: String, contentType: String, body: ByteBuffer, bearer: String? = nil) async throws -> [String: Any] {
        for attempt in 1...2 {
            var request = HTTPClientRequest(url: baseURL + path)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: contentType)
            if let proofs {
                request.headers.add(name: "DPoP", value: try proofs.proof("POST", baseURL + path, accessToken: bearer))
                if let bearer { request.headers.add(name: "Authorization", value: "DPoP \(bearer)") }
            } else if let bearer {
                request.headers.add(name: "Authorization", value: "Bearer \(bearer)")
            }
            request.body = .bytes(body)
            let response = try await http.execute(request, timeout: .seconds(30))
            let answer = try await response.body.collect(upTo: 1024 * 1024)
            if response.status == .serviceUnavailable { throw Unavailable() }
            let json = (try? JSONSerialization.jsonObject(with: Data(answer.readableBytesView)) as? [String: Any]) ?? [:]
            if let proofs, let nonce = response.headers.first(name: "DPoP-Nonce") { proofs.remember(nonce) }
            let asksForNonce = json["error"] as? String == "use_dpop_nonce"
                || response.headers.first(name: "WWW-Authenticate")?.contains("use_dpop_nonce") == true
            if attempt == 1, proofs != nil, asksForNonce { continue }
            return json
        }
        return [:]
    }

    private func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}

extension Data {
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

/// The run's DPoP key (RFC 9449) and the server's latest nonce.
final class Proofs: Sendable {
    private let key = P256.Signing.PrivateKey()
    private let publicKey: DevicePublicKey
    private let nonce = Mutex<String?>(nil)

    init() {
        publicKey = DevicePublicKey(key.publicKey)
    }

    func proof(_ method: String, _ url: String, accessToken: String?) throws -> String {
        try DPoPProof(
            key: publicKey, method: method, url: url, issuedAt: Date(), accessToken: accessToken,
            nonce: nonce.withLock { $0 }
        ).compact(signedBy: key)
    }

    func remember(_ value: String) {
        nonce.withLock { $0 = value }
    }
}
