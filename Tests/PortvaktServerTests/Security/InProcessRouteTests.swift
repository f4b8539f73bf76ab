import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PortvaktTestSupport
import Testing
@testable import PortvaktServer

/// The whole server's router without a socket (HummingbirdTesting's `.router`): migrations, the
/// seed and the background services run as in `serve`; the sandbox's providers are not connected
/// (that needs a bound port), so these tests stay with what no login is needed for.
@Suite("Routes in process")
struct InProcessRouteTests {
    /// Runs `body` with a client of the router, every route it serves and what each was declared with.
    static func withRouter<Value: Sendable>(
        settings: [String: String] = [:],
        _ body: @escaping @Sendable (any TestClientProtocol, _ routes: [String], _ declared: RouteTable) async throws -> Value
    ) async throws -> Value {
        let configuration = try TestServer.configuration(["PORTVAKT_BCRYPT_COST": "4"].merging(settings) { $1 })
        let logs = LogSink()
        nonisolated(unsafe) var routes: [String] = []
        nonisolated(unsafe) var table: RouteTable?
        let app = try await PortvaktApplication.build(
            configuration: configuration, logger: TestServer.logger(into: logs), onRoutes: { routes = $0; table = $1 }
        )
        let served = routes
        let declared = try #require(table)
        return try await app.test(.router) { client in try await body(client, served, declared) }
    }

    /// A route's path with each `{parameter}` filled in.
    static func path(of route: String) -> (method: HTTPRequest.Method, path: String) {
        let parts = route.split(separator: " ", maxSplits: 1).map(String.init)
        let path = parts[1].replacing(/\{[a-z_]+\}/, with: "nhf")
        return (HTTPRequest.Method(parts[0]) ?? .get, path)
    }

    @Test("Every member and role route answers a request without a token 401 invalid_token with a challenge, before its handler reads anything")
    func memberRoutesNeedAToken() async throws {
        try await Self.withRouter { client, routes, declared in
            let guarded = routes.filter { route in
                switch declared.declaration(of: route)?.policy.caller {
                case .member?, .role?: true
                default: false
                }
            }
            #expect(guarded.count >= 15, "the app's API: \(guarded.count) routes")
            for route in guarded {
                let (method, path) = Self.path(of: route)
                try await client.execute(uri: path, method: method, headers: [.contentType: "application/json"], body: ByteBuffer(string: "{")) { response in
                    #expect(response.status == .unauthorized, "\(route): \(response.status)")
                    #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true || response.headers[.wwwAuthenticate]?.hasPrefix("DPoP") == true, "\(route)")
                    let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                    #expect(body?["error"] as? String == "invalid_token", "\(route): \(String(buffer: response.body))")
                }
            }
        }
    }

    @Test("A token that is not ours is refused the same way on every guarded route")
    func foreignToken() async throws {
        try await Self.withRouter { client, routes, declared in
            let forged = "eyJhbGciOiJFUzI1NiIsImtpZCI6Im5vdC1vdXJzIn0.eyJzdWIiOiJ4In0.c2lnbmF0dXJl"
            let guarded = routes.filter { route in
                switch declared.declaration(of: route)?.policy.caller {
                case .member?, .role?: true
                default: false
                }
            }
            #expect(guarded.count >= 15)
            for route in guarded {
                let (method, path) = Self.path(of: route)
                try await client.execute(uri: path, method: method, headers: [.authorization: "Bearer \(forged)"]) { response in
                    #expect(response.status == .unauthorized, "\(route): \(response.status)")
                    let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                    #expect(body?["error"] as? String == "invalid_token", "\(route)")
                }
            }
        }
    }

    @Test("An unknown address is 404 (a page only for a browser's page address) and a served one with another method 405 naming the allowed ones")
    func unknownAndUnserved() async throws {
        try await Self.withRouter { client, _, _ in
            try await client.execute(uri: "/v1/nothing-here", method: .get, headers: [.accept: "application/json"]) { response in
                #expect(response.status == .notFound)
                #expect(!String(buffer: response.body).contains("<html"), "an API client gets no page")
            }
            try await client.execute(uri: "/oauth/token", method: .get) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow]?.contains("POST") == true)
            }
            try await client.execute(uri: "/account/nothing-here", method: .get, headers: [.accept: "text/html"]) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains("<html"))
            }
        }
    }
}
