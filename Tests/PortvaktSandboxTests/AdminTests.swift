import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import PortvaktSandbox

@Suite("Sandbox admin API")
struct AdminTests {
    private let bearer: HTTPFields = [.authorization: "Bearer \(SandboxHarness.adminToken)", .contentType: "application/json"]

    @Test("Without the admin token nothing changes: 401", arguments: [
        ("/sandbox/admin/faults", HTTPRequest.Method.get), ("/sandbox/admin/faults/vipps", .put), ("/sandbox/admin/faults", .delete),
        ("/sandbox/admin/clients", .get), ("/sandbox/admin/clients", .post),
    ])
    func unauthorized(path: String, method: HTTPRequest.Method) async throws {
        let harness = try SandboxHarness()
        try await harness.run { client in
            let response = try await client.execute(uri: path, method: method, headers: [.authorization: "Bearer wrong-token", .contentType: "application/json"],
                                                    body: .init(string: #"{"faults":["outage"]}"#))
            #expect(response.status == .unauthorized)
            #expect(await harness.sandbox.faults.settings(for: .vipps).faults.isEmpty)
        }
    }

    @Test("Faults switch on and off at runtime, and the switch is observable")
    func switchFaults() async throws {
        let harness = try SandboxHarness()
        try await harness.run { [bearer] client in
            let discovery = "/sandbox" + SandboxProvider.vipps.discoveryPath
            let value1 = try await client.execute(uri: discovery, method: .get).status
            #expect(value1 == .ok)
            let (status, body) = try await client.json("/sandbox/admin/faults/vipps", method: .put, headers: bearer, body: #"{"faults":["outage"]}"#)
            #expect(status == .ok && body["faults"] as? [String] == ["outage"])
            let value2 = try await client.execute(uri: discovery, method: .get).status
            #expect(value2 == .serviceUnavailable)
            let (_, all) = try await client.json("/sandbox/admin/faults", headers: bearer)
            #expect((all["vipps"] as? [String: Any])?["faults"] as? [String] == ["outage"])
            let value3 = try await client.execute(uri: "/sandbox/admin/faults", method: .delete, headers: bearer).status
            #expect(value3 == .noContent)
            let value4 = try await client.execute(uri: discovery, method: .get).status
            #expect(value4 == .ok)
        }
    }

    @Test("Unknown faults, providers and bad delays are 4xx", arguments: [
        ("/sandbox/admin/faults/vipps", #"{"faults":["meltdown"]}"#), ("/sandbox/admin/faults/altinn", #"{"faults":[]}"#),
        ("/sandbox/admin/faults/vipps", #"{"faults":["slow"],"slow_seconds":-1}"#), ("/sandbox/admin/faults/vipps", "not json"),
    ])
    func badFaults(path: String, body: String) async throws {
        let harness = try SandboxHarness()
        try await harness.run { [bearer] client in
            let status = try await client.execute(uri: path, method: .put, headers: bearer, body: .init(string: body)).status
            #expect((400..<500).contains(status.code))
        }
    }

    @Test("Clients register through the API and can log in at once; secrets are never listed")
    func registerClient() async throws {
        let harness = try SandboxHarness()
        try await harness.run { [bearer] client in
            let registration = #"{"provider":"vipps","client_id":"new-app","client_secret":"new-app-secret-0123","redirect_uris":["http://127.0.0.1:5000/cb"]}"#
            let (status, _) = try await client.json("/sandbox/admin/clients", method: .post, headers: bearer, body: registration)
            #expect(status == .created)
            var request = AuthorizationRequest(.vipps)
            request.clientID = "new-app"
            request.redirectURI = "http://127.0.0.1:5000/cb"
            let value5 = try await client.authorize(request)["code"]
            #expect(value5 != nil)
            let listed = String(buffer: try await client.execute(uri: "/sandbox/admin/clients", method: .get, headers: bearer).body)
            #expect(listed.contains("new-app") && !listed.contains("new-app-secret"))
        }
    }

    @Test("A registration without credentials or redirect URIs is refused", arguments: [
        #"{"provider":"vipps","client_id":"x","redirect_uris":["https://x.example/cb"]}"#,
        #"{"provider":"vipps","client_id":"x","client_secret":"long-enough-secret","redirect_uris":[]}"#,
        #"{"provider":"bankid","client_id":"x","token_endpoint_auth_method":"private_key_jwt","jwks":"{}","redirect_uris":["https://x.example/cb"]}"#,
    ])
    func badRegistration(body: String) async throws {
        let harness = try SandboxHarness()
        try await harness.run { [bearer] client in
            let value6 = try await client.execute(uri: "/sandbox/admin/clients", method: .post, headers: bearer, body: .init(string: body)).status
            #expect(value6 == .badRequest)
        }
    }
}
