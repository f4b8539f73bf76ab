import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import Testing

@testable import PortvaktServer

/// How a request answered in process behaves as a client sees it (issue 48 item 2): a late answer,
/// a cancelled caller, a dropped connection, a server that has stopped, and what the route reads.
@Suite("In-process HTTP")
struct InProcessHTTPTests {
    /// Anything not answered in process would go here; these tests send nothing over the network.
    struct NoNetwork: OutboundHTTP {
        func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse {
            Issue.record("sent over the network: \(request.url)")
            throw HTTPClientError.connectTimeout
        }
    }

    static func server(_ respond: @escaping InProcessHTTP.Respond) -> InProcessHTTP {
        let http = InProcessHTTP()
        http.bind(respond, network: NoNetwork(), logger: Logger(label: "in-process-test"))
        return http
    }

    @Test("A route sees the method, authority, path, query, headers and body; a HEAD answer has no body")
    func requestAsSent() async throws {
        let http = Self.server { request, _ in
            var body = ByteBuffer()
            for try await part in request.body { body.writeImmutableBuffer(part) }
            let seen = "\(request.method) \(request.head.authority ?? "-") \(request.uri.path) \(request.uri.query ?? "-") \(request.headers[.contentType] ?? "-") \(String(buffer: body))"
            return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: seen)))
        }
        var post = HTTPClientRequest(url: "http://127.0.0.1:8080/oauth/token?x=1#fragment")
        post.method = .POST
        post.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        post.body = .bytes(ByteBuffer(string: "a=b"))
        let answer = try await http.answer(post, timeout: .seconds(5))
        #expect(String(buffer: try await answer.body.collect(upTo: 1024)) == "POST 127.0.0.1:8080 /oauth/token x=1 application/x-www-form-urlencoded a=b")
        var head = HTTPClientRequest(url: "http://127.0.0.1:8080/")
        head.method = .HEAD
        #expect(try await http.answer(head, timeout: .seconds(5)).body.collect(upTo: 1024).readableBytes == 0)
    }

    @Test("A late answer is deadlineExceeded at the deadline; a cancelled caller stops waiting at once", .timeLimit(.minutes(1)))
    func deadlineAndCancellation() async throws {
        let (entered, enter) = AsyncStream<Void>.makeStream()
        let http = Self.server { _, _ in
            enter.yield()
            try? await Task.sleep(for: .seconds(3))
            return Response(status: .ok)
        }
        let started = ContinuousClock.now
        await #expect(throws: HTTPClientError.deadlineExceeded) {
            try await http.answer(HTTPClientRequest(url: "http://127.0.0.1/slow"), timeout: .milliseconds(100))
        }
        #expect(ContinuousClock.now - started < .seconds(2))

        var arrivals = entered.makeAsyncIterator()
        _ = await arrivals.next()
        // Cancelled once its request is being answered, not after a guess at how long that takes.
        // A hundred times: the handler's end and the caller's cancel race, and once answered under
        // a lock that cancellation also takes, the two deadlocked and held every thread.
        for _ in 0..<100 {
            let caller = Task { try await http.answer(HTTPClientRequest(url: "http://127.0.0.1/slow"), timeout: .seconds(30)) }
            _ = await arrivals.next()
            let cancelledAt = ContinuousClock.now
            caller.cancel()
            await #expect(throws: CancellationError.self) { try await caller.value }
            #expect(ContinuousClock.now - cancelledAt < .seconds(2))
        }
    }

    @Test("A dropped connection is remoteConnectionClosed; after the server stops, alreadyShutdown")
    func droppedAndStopped() async throws {
        let http = Self.server { _, context in
            await context.dropConnection()
            throw HTTPError(.serviceUnavailable)
        }
        await #expect(throws: HTTPClientError.remoteConnectionClosed) {
            try await http.answer(HTTPClientRequest(url: "http://127.0.0.1/drop"), timeout: .seconds(5))
        }
        http.unbind()
        await #expect(throws: HTTPClientError.alreadyShutdown) {
            try await http.answer(HTTPClientRequest(url: "http://127.0.0.1/drop"), timeout: .seconds(5))
        }
    }
}
