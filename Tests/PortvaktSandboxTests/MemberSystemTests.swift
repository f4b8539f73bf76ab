import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PortvaktCore
import Testing
@testable import PortvaktSandbox

/// The sandbox's member system checks an update as a real receiver must (docs/member-systems.md, "Member
/// systems"); security review III, item 6: the signature binds the body to its `Idempotency-Key`.
@Suite("Sandbox member system")
struct MemberSystemTests {
    static let secret = "member-system-secret-0123456789"
    static let body = #"{"event":"member.personnummer.set","member_ref":"sandbox-kari","personnummer":"12438510085"}"#

    @Test("A captured body and signature replayed under a new Idempotency-Key is refused 401; under its own key it is applied once")
    func replayUnderNewKey() async throws {
        let harness = try SandboxHarness()
        await harness.sandbox.registerMemberSystem(organisation: "nhf", secret: Self.secret)
        let timestamp = Int(harness.clock.now.timeIntervalSince1970)
        let signature = MemberUpdateSignature.sign(body: Data(Self.body.utf8), timestamp: timestamp, idempotencyKey: "message-1", secret: Self.secret)
        try await harness.run { client in
            let first = try await client.execute(uri: "/sandbox/members/nhf", method: .post, headers: Self.headers(key: "message-1", timestamp: timestamp, signature: signature), body: ByteBuffer(string: Self.body))
            #expect(first.status == .ok)
            let replayed = try await client.execute(uri: "/sandbox/members/nhf", method: .post, headers: Self.headers(key: "message-2", timestamp: timestamp, signature: signature), body: ByteBuffer(string: Self.body))
            #expect(replayed.status == .unauthorized, "the same body and signature under a new key")
            let retried = try await client.execute(uri: "/sandbox/members/nhf", method: .post, headers: Self.headers(key: "message-1", timestamp: timestamp, signature: signature), body: ByteBuffer(string: Self.body))
            #expect(retried.status == .ok, "a retry under its own key is answered, not applied again")
        }
        let received = await harness.sandbox.memberSystem.received(by: "nhf")
        #expect(received.map(\.idempotencyKey) == ["message-1"])
        #expect(received.first?.deliveries == 2)
    }

    @Test("The signature is v2=hex HMAC-SHA256(secret, \"<timestamp>.<idempotency key>.<body>\"); the v1 form over \"<timestamp>.<body>\" is refused")
    func canonicalString() async throws {
        let timestamp = 1_800_000_000
        let key = SymmetricKey(data: Data(Self.secret.utf8))
        let v2 = HMAC<SHA256>.authenticationCode(for: Data("\(timestamp).message-1.\(Self.body)".utf8), using: key)
        #expect(MemberUpdateSignature.sign(body: Data(Self.body.utf8), timestamp: timestamp, idempotencyKey: "message-1", secret: Self.secret) == "v2=" + Data(v2).hexEncoded())

        let harness = try SandboxHarness()
        await harness.sandbox.registerMemberSystem(organisation: "nhf", secret: Self.secret)
        let now = Int(harness.clock.now.timeIntervalSince1970)
        let v1 = "v1=" + Data(HMAC<SHA256>.authenticationCode(for: Data("\(now).\(Self.body)".utf8), using: key)).hexEncoded()
        try await harness.run { client in
            let response = try await client.execute(uri: "/sandbox/members/nhf", method: .post, headers: Self.headers(key: "message-1", timestamp: now, signature: v1), body: ByteBuffer(string: Self.body))
            #expect(response.status == .unauthorized)
        }
        #expect(await harness.sandbox.memberSystem.received(by: "nhf").isEmpty)
    }

    static func headers(key: String, timestamp: Int, signature: String) -> HTTPFields {
        var fields: HTTPFields = [.contentType: "application/json"]
        fields[HTTPField.Name(MemberUpdateSignature.idempotencyKeyHeader)!] = key
        fields[HTTPField.Name(MemberUpdateSignature.timestampHeader)!] = String(timestamp)
        fields[HTTPField.Name(MemberUpdateSignature.signatureHeader)!] = signature
        return fields
    }
}
