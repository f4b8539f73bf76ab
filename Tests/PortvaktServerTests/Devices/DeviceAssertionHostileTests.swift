import Crypto
import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Every way to fake or reuse a device assertion ends in a 4xx with an OAuth error, never a
/// session (issue point 2: replay, wrong purpose or device, expiry, revoked devices, other keys,
/// malformed or non-ES256 signatures).
@Suite("Hostile device assertions")
struct DeviceAssertionHostileTests {
    @Test("Each forged, replayed, misdirected or expired assertion is refused with a 4xx", arguments: TestDatabase.kinds)
    func hostileAssertions(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let login = try await broker.bankIDLogin("ola")
            let device = try await broker.registerDevice(TestDevice(), token: login.access)
            let second = try await broker.registerDevice(TestDevice(), token: login.access, name: "Tablet")
            let audience = broker.baseURL

            // Hostile challenge requests.
            #expect(try await broker.challenge(device.id, purpose: .stepUp, action: "contacts.read").status == 401, "step-up needs the user's token")
            #expect(try await broker.challenge(device.id, purpose: .stepUp, action: "admin.everything", token: login.access).status == 400)
            #expect(try await broker.challenge(device.id, purpose: .unlock, action: "contacts.read").status == 400)
            #expect(try await broker.api(.POST, "/v1/devices/\(device.id)/challenges", token: nil, json: ["purpose": "sudo"]).status == 400)
            #expect(try await broker.send("/v1/devices/\(device.id)/challenges", method: .POST, raw: ("text/plain", Data("unlock".utf8))).status == 415)
            #expect(try await broker.challenge("'; DROP TABLE devices; --", purpose: .unlock).status == 404)
            let jonas = try await broker.bankIDLogin("jonas")
            #expect(try await broker.challenge(device.id, purpose: .stepUp, action: "contacts.read", token: jonas.access).status == 404, "another user's token")

            // A step-up challenge used to unlock; then it is spent, and the honest step-up with it fails too.
            let stepUpChallenge = try await broker.challengeValue(device.id, purpose: .stepUp, action: "contacts.read", token: login.access)
            let misused = try device.assertion(challenge: stepUpChallenge, purpose: .unlock, audience: audience, issuedAt: broker.clock.now)
            #expect(try await broker.unlockGrant(misused).status == 400, "wrong purpose")
            let spent = try device.assertion(challenge: stepUpChallenge, purpose: .stepUp, action: "contacts.read", audience: audience, issuedAt: broker.clock.now)
            #expect(try await broker.api(.POST, "/v1/step-up", token: login.access, json: ["assertion": spent]).status == 400)

            /// Waits out the throttle (at most 15 minutes), so each case is refused for its own reason, not as a 429.
            func cooledDown() { broker.clock.advance(by: 15 * 60 + 1) }
            func refused(_ assertion: String, _ label: String) async throws {
                let reply = try await broker.unlockGrant(assertion)
                #expect(reply.status == 400, "\(label): \(reply.status) \(reply.body)")
                #expect(reply.string("access_token") == nil, "\(label) got a session")
                #expect(reply.string("error") == "invalid_grant", "\(label): \(reply.body)")
            }

            // Replay: the first answer opens a session, the same assertion again does not.
            cooledDown()
            let challenge = try await broker.challengeValue(device.id, purpose: .unlock)
            let valid = try device.assertion(challenge: challenge, purpose: .unlock, audience: audience, issuedAt: broker.clock.now)
            #expect(try await broker.unlockGrant(valid).status == 200)
            try await refused(valid, "replay")

            // A challenge for one device answered by the other (its own key, its own id).
            cooledDown()
            let forFirst = try await broker.challengeValue(device.id, purpose: .unlock)
            try await refused(try second.assertion(challenge: forFirst, purpose: .unlock, audience: audience, issuedAt: broker.clock.now), "wrong device")

            // Signed by a key that is not the device's.
            cooledDown()
            let other = try await broker.challengeValue(device.id, purpose: .unlock)
            try await refused(
                try device.assertion(challenge: other, purpose: .unlock, audience: audience, signedBy: P256.Signing.PrivateKey(), issuedAt: broker.clock.now),
                "other key")

            // Expired: signed after the 60 seconds.
            cooledDown()
            let old = try await broker.challengeValue(device.id, purpose: .unlock)
            broker.clock.advance(by: 61)
            try await refused(try device.assertion(challenge: old, purpose: .unlock, audience: audience, issuedAt: broker.clock.now), "expired challenge")

            // Another audience (an assertion meant for another server).
            cooledDown()
            let aud = try await broker.challengeValue(device.id, purpose: .unlock)
            try await refused(try device.assertion(challenge: aud, purpose: .unlock, audience: "https://evil.example", issuedAt: broker.clock.now), "audience")

            // Signed long before the challenge existed.
            cooledDown()
            let stale = try await broker.challengeValue(device.id, purpose: .unlock)
            try await refused(
                try device.assertion(challenge: stale, purpose: .unlock, audience: audience, issuedAt: broker.clock.now.addingTimeInterval(-600)), "stale iat")

            // A challenge the server never issued.
            cooledDown()
            try await refused(try device.assertion(challenge: randomToken(), purpose: .unlock, audience: audience, issuedAt: broker.clock.now), "unknown challenge")

            // Malformed and non-ES256 tokens.
            let sample = try device.assertion(challenge: randomToken(), purpose: .unlock, audience: audience, issuedAt: broker.clock.now)
            let parts = sample.split(separator: ".").map(String.init)
            func header(_ fields: [String: String]) throws -> String {
                try JSONSerialization.data(withJSONObject: fields, options: .sortedKeys).base64URLEncoded()
            }
            let hs256 = try header(["alg": "HS256", "kid": device.id])
            let hmac = Data(HMAC<SHA256>.authenticationCode(
                for: Data("\(hs256).\(parts[1])".utf8), using: SymmetricKey(data: Data(device.key.publicKey.rawRepresentation))
            )).base64URLEncoded()
            let der = try device.key.signature(for: Data("\(parts[0]).\(parts[1])".utf8)).derRepresentation.base64URLEncoded()
            for (label, token) in [
                ("garbage", "not-a-jws"), ("two parts", "\(parts[0]).\(parts[1])"), ("empty signature", "\(parts[0]).\(parts[1])."),
                ("alg none", "\(try header(["alg": "none", "kid": device.id])).\(parts[1])."),
                ("HS256 keyed with the public key", "\(hs256).\(parts[1]).\(hmac)"),
                ("RS256 header", "\(try header(["alg": "RS256", "kid": device.id])).\(parts[1]).\(parts[2])"),
                ("embedded jwk", "\(try header(["alg": "ES256", "kid": device.id, "jwk": "{}"])).\(parts[1]).\(parts[2])"),
                ("no kid", "\(try header(["alg": "ES256"])).\(parts[1]).\(parts[2])"),
                ("unknown kid", "\(try header(["alg": "ES256", "kid": UUID().uuidString.lowercased()])).\(parts[1]).\(parts[2])"),
                ("DER signature", "\(parts[0]).\(parts[1]).\(der)"),
                ("tampered payload", "\(parts[0]).\(parts[1].dropLast(4))AAAA.\(parts[2])"),
                ("huge", String(repeating: "a", count: 10_000)),
            ] {
                cooledDown()
                try await refused(token, label)
            }

            // None of this stops the real device.
            cooledDown()
            #expect(try await broker.unlock(device).status == 200)

            // A revoked device: no challenge, and an assertion made before the revocation is refused.
            let lastChallenge = try await broker.challengeValue(second.id, purpose: .unlock)
            let fresh = try #require(try await broker.refresh(login.refresh).string("access_token"))
            #expect(try await broker.api(.DELETE, "/v1/devices/\(second.id)", token: fresh).status == 204)
            try await refused(try second.assertion(challenge: lastChallenge, purpose: .unlock, audience: audience, issuedAt: broker.clock.now), "revoked")
            #expect(try await broker.challenge(second.id, purpose: .unlock).status == 404)
        }
    }
}
