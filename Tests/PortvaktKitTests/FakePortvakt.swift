import Foundation
@testable import PortvaktKit
import PortvaktProtocol
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Portvakt's HTTP API answered inside the test process: the client's own `URLSession` hands
/// every request to ``FakePortvaktProtocol``, which asks the `FakePortvakt` of the request's
/// host. No socket is opened, and each test has a host (and so a server) of its own.
final class FakePortvakt: Sendable {
    /// One answer: a status with a JSON body, or no answer at all (the network is gone).
    enum Reply: Sendable {
        case status(Int, Data)
        case offline

        static func ok(_ value: some Encodable) -> Reply {
            .status(200, (try? JSONEncoder().encode(value)) ?? Data())
        }

        /// An error answer as Portvakt gives it: the OAuth `error` and the message to show.
        static func refused(_ status: Int, error: String, message: UserMessage?) -> Reply {
            ok(ErrorResponse(error: error, errorDescription: nil, messageID: message?.rawValue)).with(status: status)
        }

        private func with(status: Int) -> Reply {
            guard case .status(_, let body) = self else { return self }
            return .status(status, body)
        }
    }

    /// A request as the server saw it.
    struct Request: Sendable {
        let method: String
        let path: String
        let headers: [String: String]
        let body: Data

        init(_ request: URLRequest) {
            method = request.httpMethod ?? "GET"
            path = request.url?.path ?? ""
            headers = request.allHTTPHeaderFields ?? [:]
            body = request.httpBody ?? Self.read(request.httpBodyStream)
        }

        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// The fields of a form body (the token, revocation and pushed-request endpoints).
        var form: [String: String] {
            var fields: [String: String] = [:]
            for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let name = parts.first else { continue }
                fields[String(name)] = parts.count > 1 ? PercentEncoding.decode(parts[1], plusIsSpace: true) : ""
            }
            return fields
        }

        /// The order a `collect`, `qr` or `cancel` is about.
        var sessionID: String? { (try? JSONDecoder().decode(BankIDOrderHandle.self, from: body))?.sessionId }

        /// Where the body is a stream (Apple's loading system hands a protocol one).
        private static func read(_ stream: InputStream?) -> Data {
            guard let stream else { return Data() }
            stream.open()
            defer { stream.close() }
            var data = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while stream.hasBytesAvailable {
                let count = stream.read(&buffer, maxLength: buffer.count)
                guard count > 0 else { break }
                data.append(buffer, count: count)
            }
            return data
        }
    }

    /// Runs when a request reaches its path, before it is answered.
    typealias Hook = @Sendable () async -> Void

    private struct State {
        var scripts: [String: [Reply]] = [:]
        var hooks: [String: Hook] = [:]
        var seen: [Request] = []
    }

    private static let servers = Mutex<[String: FakePortvakt]>([:])

    let host = "\(UUID().uuidString.lowercased()).portvakt.test"
    let session: URLSession
    private let state = Mutex(State())

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [FakePortvaktProtocol.self]
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
        let name = self.host
        Self.servers.withLock { $0[name] = self }
    }

    var baseURL: URL { URL(string: "https://\(host)")! }

    /// The answers to `path`, in order; the last one is given again to every later request.
    /// A path without answers is answered 404.
    func on(_ path: String, _ replies: Reply...) {
        on(path, replies: replies)
    }

    func on(_ path: String, replies: [Reply]) {
        state.withLock { $0.scripts[path] = replies }
    }

    /// `hook` runs (once) when the next request to `path` arrives, and its answer waits for it.
    func before(_ path: String, _ hook: @escaping Hook) {
        state.withLock { $0.hooks[path] = hook }
    }

    func requests(to path: String) -> [Request] {
        state.withLock { state in state.seen.filter { request in request.path == path } }
    }

    /// The path of every request, in the order they arrived.
    var paths: [String] {
        state.withLock { state in state.seen.map(\.path) }
    }

    /// An access token (a JWT this client reads, never verifies) naming `user`.
    /// A token of a BankID login at the fake clock's start (``FakeClock/start``), unless told otherwise.
    static func accessToken(for user: String, acr: String = "urn:bankid:bid;LOA=4", authTime: Int = 1_800_000_000) -> String {
        "e30.\(Data(#"{"sub":"\#(user)","exp":9999999999,"acr":"\#(acr)","auth_time":\#(authTime)}"#.utf8).base64URLEncoded()).c2ln"
    }

    static func reply(to request: URLRequest) -> (Reply, Hook?) {
        guard let host = request.url?.host, let server = servers.withLock({ $0[host] }) else { return (.offline, nil) }
        return server.answer(Request(request))
    }

    private func answer(_ request: Request) -> (Reply, Hook?) {
        state.withLock { state in
            state.seen.append(request)
            let hook = state.hooks.removeValue(forKey: request.path)
            guard var script = state.scripts[request.path], let first = script.first else {
                return (Reply.refused(404, error: "not_found", message: nil), hook)
            }
            if script.count > 1 {
                script.removeFirst()
                state.scripts[request.path] = script
            }
            return (first, hook)
        }
    }
}

extension FakePortvakt {
    /// Portvakt's paths the driver uses.
    enum Endpoint {
        static let pushedRequest = "/oauth/par"
        static let token = "/oauth/token"
        static let revoke = "/oauth/revoke"
        static let startOrder = "/bankid/orders"
        static let collect = "/bankid/orders/collect"
        static let qrCode = "/bankid/orders/qr"
        static let cancelOrder = "/bankid/orders/cancel"
        static let devices = "/v1/devices"
        static let activities = "/v1/activities"
        static func device(_ id: String) -> String { "/v1/devices/\(id)" }
        static func challenges(_ id: String) -> String { "/v1/devices/\(id)/challenges" }
    }
}

extension FakePortvakt.Reply {
    static let pushed: FakePortvakt.Reply = .ok(PushedRequestResponse(requestURI: "urn:ietf:params:oauth:request_uri:test", expiresIn: 60))
    static let cancelled: FakePortvakt.Reply = .ok(
        BankIDOrderState(status: "failed", hintCode: "userCancel", messageId: nil, message: nil, error: "access_denied", code: nil, expiresIn: nil)
    )

    static func tokens(for user: String, refresh: String, acr: String = "urn:bankid:bid;LOA=4", authTime: Int = 1_800_000_000) -> FakePortvakt.Reply {
        .ok(TokenResponse(
            accessToken: FakePortvakt.accessToken(for: user, acr: acr, authTime: authTime), tokenType: "Bearer", expiresIn: 600, refreshToken: refresh, idToken: nil, scope: "openid"
        ))
    }

    static func order(_ id: String) -> FakePortvakt.Reply {
        .ok(BankIDOrderStarted(
            sessionId: id, autoStartToken: "auto-\(id)", launchURL: "bankid:///?autostarttoken=auto-\(id)&redirect=null",
            qrCodeUri: "/bankid/orders/qr", expiresAt: "2027-01-15T08:03:00Z", expiresIn: 180, pollInterval: 2
        ))
    }

    static func pending(_ message: String) -> FakePortvakt.Reply {
        .ok(BankIDOrderState(
            status: "pending", hintCode: "outstandingTransaction", messageId: "bankid_start_app", message: message, error: nil, code: nil, expiresIn: 170
        ))
    }

    static func complete(code: String) -> FakePortvakt.Reply {
        .ok(BankIDOrderState(status: "complete", hintCode: nil, messageId: nil, message: nil, error: nil, code: code, expiresIn: nil))
    }

    static func failed(_ message: UserMessage) -> FakePortvakt.Reply {
        .ok(BankIDOrderState(status: "failed", hintCode: "certificateErr", messageId: message.rawValue, message: nil, error: "access_denied", code: nil, expiresIn: nil))
    }

    /// The animated QR code's `number`th frame.
    static func frame(_ number: Int) -> FakePortvakt.Reply {
        .ok(BankIDQRFrame(qrData: "frame-\(number)", seconds: number - 1, svg: nil, text: nil))
    }

    static func challenge(for deviceID: String) -> FakePortvakt.Reply {
        .ok(DeviceChallengeIssued(
            challenge: "challenge-1", deviceId: deviceID, purpose: "unlock", action: nil, audience: "https://portvakt.test",
            expiresAt: "2027-01-15T08:01:00Z", expiresIn: 60
        ))
    }
}

/// The loading system's side of ``FakePortvakt``.
final class FakePortvaktProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let (reply, hook) = FakePortvakt.reply(to: request)
        guard let hook else { return deliver(reply) }
        let loading = Unchecked(value: self)
        Task {
            await hook()
            loading.value.deliver(reply)
        }
    }

    /// Set when the loading system gave up on the request (a deadline cancelled it): a hook's
    /// late answer is then not delivered, which FoundationNetworking would trap on.
    private let stopped = Mutex(false)

    override func stopLoading() {
        stopped.withLock { $0 = true }
    }

    private func deliver(_ reply: FakePortvakt.Reply) {
        guard !stopped.withLock({ $0 }) else { return }
        guard case .status(let status, let body) = reply, let url = request.url,
              let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])
        else {
            client?.urlProtocol(self, didFailWithError: URLError(.notConnectedToInternet))
            return
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: body)
        client?.urlProtocolDidFinishLoading(self)
    }
}

/// The loading system's object, carried to the task that answers it after a hook (the loading
/// system takes answers from any thread).
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
}
