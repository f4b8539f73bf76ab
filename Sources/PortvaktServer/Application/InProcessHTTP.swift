import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import Instrumentation
import Logging
import ServiceLifecycle
import NIOCore
import NIOHTTP1
import Synchronization
import Tracing

/// Answers HTTP requests with this server's own router, without a socket (issue 48 item 2).
///
/// The broker reaches the embedded sandbox this way, since the sandbox's routes are on the same
/// router: a development server opens no connection to itself to log someone in, and stopping it
/// leaves no call to itself waiting. Every other URL goes over the network. A test drives a whole
/// server through ``answer(_:timeout:)``, as a browser would over a socket.
public final class InProcessHTTP: OutboundHTTP {
    typealias Respond = @Sendable (Request, PortvaktRequestContext) async throws -> Response

    private struct Binding {
        let respond: Respond
        let network: any OutboundHTTP
        let logger: Logger
    }

    private let binding = Mutex<Binding?>(nil)
    private let local = Mutex<Local?>(nil)

    /// The URLs answered here (the embedded sandbox's): those under `publicURL + pathPrefix`.
    private struct Local {
        let publicURL: String
        let pathPrefix: String

        /// The URL as the router sees it: a public URL's own path is a reverse proxy's, which takes it off.
        func routed(_ url: String) -> String? {
            guard url.hasPrefix(publicURL + pathPrefix + "/"), let schemeEnd = publicURL.range(of: "://") else { return nil }
            let origin = publicURL[..<(publicURL[schemeEnd.upperBound...].firstIndex(of: "/") ?? publicURL.endIndex)]
            return String(origin) + String(url.dropFirst(publicURL.count))
        }
    }

    public init() {}

    func bind(_ respond: @escaping Respond, network: any OutboundHTTP, logger: Logger) {
        binding.withLock { $0 = Binding(respond: respond, network: network, logger: logger) }
    }

    func answerLocally(publicURL: String, pathPrefix: String) {
        local.withLock { $0 = Local(publicURL: publicURL, pathPrefix: pathPrefix) }
    }

    func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse {
        if let routed = local.withLock({ $0 })?.routed(request.url) {
            return try await asClient(request, routedAs: routed, timeout: timeout)
        }
        return try await bound().network.execute(request, timeout: timeout)
    }

    /// What AsyncHTTPClient does around a call: a client span named by the method, with the URL, and
    /// the trace's `traceparent` in the request, so the answering route's span is the call's child.
    private func asClient(_ request: HTTPClientRequest, routedAs url: String, timeout: TimeAmount) async throws -> HTTPClientResponse {
        try await withSpan(request.method.rawValue, ofKind: .client) { span in
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["url.full"] = request.url
            span.attributes["url.path"] = URL(string: request.url)?.path
            var request = request
            request.url = url
            InstrumentationSystem.instrument.inject(InstrumentationContext.current ?? .topLevel, into: &request.headers, using: HeadersInjector())
            let response = try await answer(request, timeout: timeout)
            if response.status.code >= 400 { span.setStatus(.init(code: .error)) }
            span.attributes["http.response.status_code"] = Int64(response.status.code)
            return response
        }
    }

    /// The server's answer to `request`, with its status, headers and body as a client would read them: a
    /// connection the server drops is `HTTPClientError.remoteConnectionClosed`, an answer later than
    /// `timeout` is `HTTPClientError.deadlineExceeded`.
    public func answer(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse {
        let binding = try bound()
        let head = try await Self.head(of: request)
        let connection = InProcessConnection()
        var logger = binding.logger
        logger[metadataKey: "hb.request.id"] = .stringConvertible(RequestID())
        let context = PortvaktRequestContext(inProcess: connection, logger: logger)
        // Detached: the server sees what a request carries (its trace in `traceparent`), none of the caller's task-locals.
        let work = Task.detached { () async throws -> HTTPClientResponse in
            let response: Response
            do {
                response = try await binding.respond(Request(head: head.request, body: RequestBody(buffer: head.body)), context)
            } catch {
                response = Response(status: .internalServerError)
            }
            if connection.isDropped { throw HTTPClientError.remoteConnectionClosed }
            return try await Self.clientResponse(response, to: head.request.method)
        }
        // As a client that gives up: the deadline ends the wait, and the server's handler still runs to its end.
        // A caller that is cancelled stops waiting at once and cancels the handler, as a closed connection would.
        let outcome = FirstOutcome()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                outcome.start(continuation)
                let deadline = Task {
                    try await Task.sleep(for: .nanoseconds(timeout.nanoseconds))
                    outcome.resume(with: .failure(HTTPClientError.deadlineExceeded))
                }
                Task {
                    outcome.resume(with: await work.result)
                    deadline.cancel()
                }
            }
        } onCancel: {
            // The caller's answer first: the handler, once cancelled, may answer before it.
            outcome.resume(with: .failure(CancellationError()))
            work.cancel()
        }
    }

    /// Lets the router go when the server stops: the router's routes hold this object.
    func unbind() {
        binding.withLock { $0 = nil }
        local.withLock { $0 = nil }
    }

    private func bound() throws -> Binding {
        guard let binding = binding.withLock({ $0 }) else { throw HTTPClientError.alreadyShutdown }
        return binding
    }

    private static func head(of request: HTTPClientRequest) async throws -> (request: HTTPRequest, body: ByteBuffer) {
        guard let method = HTTPRequest.Method(request.method.rawValue),
              let schemeEnd = request.url.range(of: "://")
        else { throw HTTPClientError.invalidURL }
        let afterScheme = request.url[schemeEnd.upperBound...]
        let pathStart = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
        // A fragment stays with the client.
        let path = afterScheme[pathStart...].prefix { $0 != "#" }
        var fields = HTTPFields()
        var authority = String(afterScheme[..<pathStart])
        for header in request.headers {
            // HTTP/1.1's Host is HTTPTypes' authority, never a field.
            if header.name.lowercased() == "host" {
                authority = header.value
                continue
            }
            guard let name = HTTPField.Name(header.name) else { throw HTTPClientError.invalidHeaderFieldNames([header.name]) }
            fields.append(HTTPField(name: name, value: header.value))
        }
        var body = ByteBuffer()
        if let parts = request.body {
            for try await part in parts { body.writeImmutableBuffer(part) }
            if fields[.contentLength] == nil { fields[.contentLength] = String(body.readableBytes) }
        }
        let head = HTTPRequest(
            method: method, scheme: String(request.url[..<schemeEnd.lowerBound]), authority: authority,
            path: path.hasPrefix("/") ? String(path) : "/" + path, headerFields: fields
        )
        return (head, body)
    }

    private static func clientResponse(_ response: Response, to method: HTTPRequest.Method) async throws -> HTTPClientResponse {
        let collector = BodyCollector()
        try await response.body.write(collector)
        var headers = HTTPHeaders()
        for field in response.headers { headers.add(name: field.name.rawName, value: field.value) }
        return HTTPClientResponse(
            version: .http1_1, status: HTTPResponseStatus(statusCode: Int(response.status.code), reasonPhrase: response.status.reasonPhrase),
            headers: headers, body: .bytes(method == .head ? ByteBuffer() : collector.buffer)
        )
    }
}

/// Keeps ``InProcessHTTP`` bound while the server runs; it is the server's first service, so it stops last.
struct InProcessBinding: Service {
    let http: InProcessHTTP

    func run() async throws {
        try? await gracefulShutdown()
        http.unbind()
    }
}

private struct HeadersInjector: Injector {
    func inject(_ value: String, forKey name: String, into headers: inout HTTPHeaders) {
        headers.replaceOrAdd(name: name, value: value)
    }
}

/// The connection of one request answered in process: the `connection_drop` fault marks it dropped.
final class InProcessConnection: Sendable {
    private let dropped = Mutex(false)

    var isDropped: Bool { dropped.withLock { $0 } }

    func drop() {
        dropped.withLock { $0 = true }
    }
}

/// Resumes a continuation once, with whichever outcome comes first; one that comes before the
/// continuation (a caller cancelled at once) is kept for it. The continuation is resumed after
/// the lock is let go: a cancellation handler calls in here while the runtime holds its task's
/// lock, which resuming takes too, so resuming under this lock deadlocks against it.
private final class FirstOutcome: Sendable {
    private struct State {
        var continuation: CheckedContinuation<HTTPClientResponse, any Error>?
        var early: Result<HTTPClientResponse, any Error>?
        var settled = false
    }

    private let state = Mutex(State())

    func start(_ continuation: CheckedContinuation<HTTPClientResponse, any Error>) {
        let early: Result<HTTPClientResponse, any Error>? = state.withLock { state in
            guard let early = state.early else {
                state.continuation = continuation
                return nil
            }
            state.early = nil
            state.settled = true
            return early
        }
        if let early { continuation.resume(with: early) }
    }

    func resume(with result: Result<HTTPClientResponse, any Error>) {
        let waiting: CheckedContinuation<HTTPClientResponse, any Error>? = state.withLock { state in
            guard !state.settled else { return nil }
            guard let continuation = state.continuation else {
                if state.early == nil { state.early = result }
                return nil
            }
            state.continuation = nil
            state.settled = true
            return continuation
        }
        waiting?.resume(with: result)
    }
}

/// A response body collected in memory.
private final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        self.buffer.writeImmutableBuffer(buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
