import Foundation
import Hummingbird
import HummingbirdTesting
import PortvaktTestSupport
import Logging
import PortvaktServer
import Testing

@Suite("Server")
struct ServerTests {
    @Test("Live and ready answer 200 on a zero-configuration server over real HTTP")
    func health() async throws {
        let sink = LogSink()
        let app = try await PortvaktApplication.build(configuration: TestServer.configuration(), logger: TestServer.logger(into: sink))
        try await app.test(.live) { client in
            try await client.execute(uri: "/health/live", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("live"))
            }
            try await client.execute(uri: "/health/ready", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("ready"))
            }
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#"<html lang="nb">"#))
            }
        }
        #expect(sink.text.contains("USING DEVELOPMENT KEYS"))
    }

    @Test("The JWKS lists the signing keys (ES256 and, issue 46, RS256), public parts only, and survives a restart")
    func jwks() async throws {
        let configuration = try TestServer.configuration()
        var kids: [String] = []
        for _ in 0..<2 {
            let app = try await PortvaktApplication.build(configuration: configuration, logger: TestServer.logger(into: LogSink()))
            kids += try await app.test(.live) { client in
                try await client.execute(uri: "/.well-known/jwks.json", method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "application/jwk-set+json")
                    let jwks = try JSONDecoder().decode(JWKSDocument.self, from: Data(buffer: response.body))
                    #expect(jwks.keys.count == 2)
                    #expect(jwks.keys.contains { $0.kty == "EC" && $0.crv == "P-256" && $0.alg == "ES256" })
                    #expect(jwks.keys.contains { $0.kty == "RSA" && $0.alg == "RS256" })
                    #expect(jwks.keys.allSatisfy { $0.d == nil })
                    return jwks.keys.map(\.kid).sorted()
                }
            }
        }
        #expect(kids.count == 4 && kids[0...1] == kids[2...3])
    }

    @Test("Unknown paths and hostile input get a 4xx, never a 500", arguments: [
        "/does-not-exist", "/health/ready/../../etc/passwd", "/%00", "/.well-known/jwks.json?kid=%27%3B%20DROP%20TABLE%20users",
    ])
    func hostilePaths(path: String) async throws {
        let app = try await PortvaktApplication.build(configuration: TestServer.configuration(), logger: TestServer.logger(into: LogSink()))
        try await app.test(.live) { client in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status.code < 500)
            }
            try await client.execute(uri: "/health/live", method: .post, body: ByteBuffer(string: String(repeating: "x", count: 10_000))) { response in
                #expect((400..<500).contains(response.status.code))
            }
        }
    }
}

struct JWKSDocument: Decodable {
    struct Key: Decodable {
        let kty: String
        let kid: String
        let alg: String?
        let crv: String?
        let d: String?
    }
    let keys: [Key]
}

@Suite("Unreachable database")
struct UnreachableDatabaseTests {
    @Test("An unreachable PostgreSQL gives a clear start-up error naming it, without the password")
    func unreachable() async throws {
        let configuration = try TestServer.configuration([
            "DATABASE_URL": "postgres://portvakt:hunter2@127.0.0.1:1/portvakt?sslmode=disable",
            "PORTVAKT_DATABASE_WAIT_SECONDS": "1",
        ])
        let sink = LogSink()
        do {
            _ = try await PortvaktApplication.migrate(configuration: configuration, logger: TestServer.logger(into: sink))
            Issue.record("migrate succeeded without a database")
        } catch let error as StartupError {
            #expect(error.description.contains("cannot reach the database at postgres://127.0.0.1:1/portvakt"))
            #expect(!error.description.contains("hunter2"))
        }
        #expect(!sink.text.contains("hunter2"))
    }
}
