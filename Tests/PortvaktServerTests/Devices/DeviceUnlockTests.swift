import Crypto
import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktTestSupport
import Testing

/// Biometric unlock over real HTTP: a device key registered after a BankID login unlocks new
/// sessions until the device trust runs out (DESIGN.md, "Biometric unlock and step-up"; S5, S6, S7).
@Suite("Biometric unlock with device keys")
struct DeviceUnlockTests {
    @Test("S5.2/S5.3: register, unlock and refresh; the session says hwk and face; nothing secret is logged", arguments: TestDatabase.kinds)
    func registerUnlockRefresh(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let login = try await broker.bankIDLogin("ola")
            let device = try await broker.registerDevice(TestDevice(), token: login.access)

            let listed = try await broker.api(.GET, "/v1/devices", token: login.access)
            #expect(listed.status == 200)
            #expect(listed.body.contains(device.id) && listed.body.contains(#""biometric_kind":"face""#))

            let challenge = try await broker.challengeValue(device.id, purpose: .unlock)
            let assertion = try device.assertion(challenge: challenge, purpose: .unlock, audience: broker.baseURL, issuedAt: broker.clock.now)
            let unlocked = try await broker.unlockGrant(assertion)
            #expect(unlocked.status == 200, "\(unlocked.body)")
            let access = try #require(unlocked.string("access_token"))
            let refresh = try #require(unlocked.string("refresh_token"))
            let claims = LiveBroker.claims(access)
            #expect(claims["amr"] as? [String] == ["hwk", "face"])
            #expect(claims["acr"] as? String == "urn:portvakt:acr:device-biometric")
            #expect(claims["sid"] as? String != LiveBroker.claims(login.access)["sid"] as? String, "unlock opens a new session")
            #expect(claims["sub"] as? String == LiveBroker.claims(login.access)["sub"] as? String)

            let me = try await broker.api(.GET, "/v1/me", token: access)
            #expect(me.status == 200)
            #expect(me.string("home_screen") == "coordinator_overview")
            #expect((me.json["session"] as? [String: Any])?["device_id"] as? String == device.id)

            let refreshed = try await broker.refresh(refresh)
            #expect(refreshed.status == 200, "\(refreshed.body)")
            #expect(LiveBroker.claims(try #require(refreshed.string("access_token")))["amr"] as? [String] == ["hwk", "face"])

            let organisations = try #require(claims["org"] as? [[String: Any]], "the unlock's token names the user's organisations")
            #expect(organisations.map { $0["slug"] as? String } == ["nhf"])
            #expect(organisations.first?["roles"] as? [String] == ["coordinator"])

            // The app keeps one session per device: the next unlock ends this one.
            let again = try await broker.unlock(device)
            #expect(again.status == 200, "\(again.body)")
            let replaced = try await broker.refresh(try #require(refreshed.string("refresh_token")))
            #expect(replaced.status == 400)
            #expect(replaced.string("message_id") == "session_expired")

            let audit = try await broker.withStore { store in try await store.auditEvents(subjectType: "device", subjectID: device.id) }
            #expect(audit.map(\.action) == ["device.registered", "device.unlock", "device.unlock"])
            let chain = try await broker.withStore { store in try await store.verifyAuditChain() }
            #expect(chain.isIntact, "\(String(describing: chain.firstBroken))")

            let logs = broker.logs.text
            for secret in [challenge, assertion, access, refresh, login.access, login.refresh] {
                #expect(!logs.contains(secret), "log leaks \(secret.prefix(6))…")
            }
        }
    }

    @Test("A fingerprint device unlocks with amr hwk fpt")
    func fingerprint() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = try await broker.bankIDLogin("ingrid")
            var device = TestDevice()
            device.biometricKind = "fingerprint"
            device = try await broker.registerDevice(device, token: login.access)
            let unlocked = try await broker.unlock(device)
            #expect(LiveBroker.claims(try #require(unlocked.string("access_token")))["amr"] as? [String] == ["hwk", "fpt"])
        }
    }

    @Test("Registration needs a login of the last five minutes, not a device unlock; keys are checked; five devices at most")
    func registrationRules() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = try await broker.bankIDLogin("ola")
            let device = try await broker.registerDevice(TestDevice(), token: login.access)

            // The same key again.
            let twice = try await broker.api(.POST, "/v1/devices", token: login.access, json: [
                "name": "Again", "platform": "ios", "biometric_kind": "face", "public_key": device.publicJWK,
            ])
            #expect(twice.status == 409)

            // Bad keys and fields.
            let other = TestDevice().publicJWK
            var withPrivate = other
            withPrivate["d"] = Data(repeating: 1, count: 32).base64URLEncoded()
            var offCurve = other
            offCurve["y"] = Data(repeating: 7, count: 32).base64URLEncoded()
            var otherCurve = other
            otherCurve["crv"] = "P-384"
            for (key, name, platform, kind) in [
                (withPrivate, "Phone", "ios", "face"), (offCurve, "Phone", "ios", "face"), (otherCurve, "Phone", "ios", "face"),
                (["kty": "RSA", "n": "AQAB", "e": "AQAB"], "Phone", "ios", "face"), (other, "", "ios", "face"),
                (other, "Phone", "windows-phone", "face"), (other, "Phone", "ios", "iris"), (other, String(repeating: "x", count: 65), "ios", "face"),
            ] {
                let reply = try await broker.api(.POST, "/v1/devices", token: login.access, json: [
                    "name": name, "platform": platform, "biometric_kind": kind, "public_key": key,
                ])
                #expect(reply.status == 400, "\(key) \(name) \(platform) \(kind) answered \(reply.status)")
                #expect(reply.string("error") == "invalid_request")
            }
            let noToken = try await broker.api(.POST, "/v1/devices", token: nil, json: ["name": "x"])
            #expect(noToken.status == 401)

            // A session a device unlocked cannot enrol more keys.
            let unlocked = try #require(try await broker.unlock(device).string("access_token"))
            let fromDevice = try await broker.api(.POST, "/v1/devices", token: unlocked, json: [
                "name": "Stolen", "platform": "ios", "biometric_kind": "face", "public_key": TestDevice().publicJWK,
            ])
            #expect(fromDevice.status == 403)
            #expect(fromDevice.string("message_id") == "recent_login_required")

            // Four more fill the limit of five; the sixth is refused.
            for _ in 0..<4 { _ = try await broker.registerDevice(TestDevice(), token: login.access) }
            let sixth = try await broker.api(.POST, "/v1/devices", token: login.access, json: [
                "name": "Sixth", "platform": "android", "biometric_kind": "fingerprint", "public_key": TestDevice().publicJWK,
            ])
            #expect(sixth.status == 409)
            #expect(sixth.string("message_id") == "device_limit_reached")

            // Five minutes after the login is too late.
            broker.clock.advance(by: 301)
            let fresh = try await broker.refresh(login.refresh)
            let late = try await broker.api(.POST, "/v1/devices", token: try #require(fresh.string("access_token")), json: [
                "name": "Late", "platform": "ios", "biometric_kind": "face", "public_key": TestDevice().publicJWK,
            ])
            #expect(late.status == 403)
            #expect(late.string("message_id") == "recent_login_required")
        }
    }

    @Test("A device stays trusted 90 days after the last BankID login; then reauthentication_required, and a new BankID login renews it")
    func trustPolicy() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = try await broker.bankIDLogin("ola")
            let device = try await broker.registerDevice(TestDevice(), token: login.access)
            broker.clock.advance(by: 89 * 86400)
            #expect(try await broker.unlock(device).status == 200)

            broker.clock.advance(by: 2 * 86400)
            let refused = try await broker.unlock(device)
            #expect(refused.status == 400)
            #expect(refused.string("error") == "reauthentication_required")
            #expect(refused.string("message_id") == "reauthentication_required")

            _ = try await broker.bankIDOrderLogin("ola")
            #expect(try await broker.unlock(device).status == 200)
        }
    }

    @Test("S7.2: revoking a device ends the sessions it unlocked and refuses its challenges")
    func revoke() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = try await broker.bankIDLogin("ola")
            let device = try await broker.registerDevice(TestDevice(), token: login.access)
            let unlocked = try await broker.unlock(device)
            let refresh = try #require(unlocked.string("refresh_token"))

            #expect(try await broker.api(.DELETE, "/v1/devices/\(device.id)", token: login.access).status == 204)
            #expect(try await broker.api(.DELETE, "/v1/devices/\(device.id)", token: login.access).status == 404)
            #expect(try await broker.refresh(refresh).string("message_id") == "session_expired")
            let challenge = try await broker.challenge(device.id, purpose: .unlock)
            #expect(challenge.status == 404)
            #expect(challenge.string("message_id") == "device_not_recognised")
            #expect(try await broker.api(.GET, "/v1/devices", token: login.access).body == #"{"devices":[]}"#)
        }
    }

    @Test("Failed assertions are throttled per device: after five, even a valid one waits")
    func throttling() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = try await broker.bankIDLogin("ola")
            let device = try await broker.registerDevice(TestDevice(), token: login.access)
            // Signed by the device's own key, for a challenge Portvakt never issued.
            for _ in 0..<5 {
                let made = try device.assertion(challenge: randomToken(), purpose: .unlock, audience: broker.baseURL, issuedAt: broker.clock.now)
                #expect(try await broker.unlockGrant(made).status == 400)
            }
            let blocked = try await broker.challenge(device.id, purpose: .unlock)
            #expect(blocked.status == 429)
            #expect(blocked.string("message_id") == "too_many_attempts")

            broker.clock.advance(by: 6)
            let unlocked = try await broker.unlock(device)
            #expect(unlocked.status == 200, "the wait is over: \(unlocked.body)")
            let failures = try await broker.withStore { store in try await store.auditEvents(subjectType: "device", subjectID: device.id) }
            #expect(failures.filter { $0.action == "device.assertion_failed" }.count == 5)

            // The unlock cleared the device's counter: one more failure does not block it again.
            let made = try device.assertion(challenge: randomToken(), purpose: .unlock, audience: broker.baseURL, issuedAt: broker.clock.now)
            #expect(try await broker.unlockGrant(made).status == 400)
            #expect(try await broker.challenge(device.id, purpose: .unlock).status == 201)
        }
    }

    @Test("Failed assertions count per user too: ten across two devices block the user's third device at the grant")
    func userThrottling() async throws {
        try await LiveBroker.run(.sqlite) { broker in
            let login = try await broker.bankIDLogin("ola")
            let first = try await broker.registerDevice(TestDevice(), token: login.access)
            let second = try await broker.registerDevice(TestDevice(), token: login.access)
            let third = try await broker.registerDevice(TestDevice(), token: login.access)
            for device in [first, second] {
                for _ in 0..<5 {
                    let made = try device.assertion(challenge: randomToken(), purpose: .unlock, audience: broker.baseURL, issuedAt: broker.clock.now)
                    #expect(try await broker.unlockGrant(made).status == 400)
                }
            }
            // The third device and the address are not blocked, so its challenge is issued; its
            // user is, so its valid assertion waits.
            let challenge = try await broker.challengeValue(third.id, purpose: .unlock)
            let valid = try third.assertion(challenge: challenge, purpose: .unlock, audience: broker.baseURL, issuedAt: broker.clock.now)
            let blocked = try await broker.unlockGrant(valid)
            #expect(blocked.status == 429)
            #expect(blocked.string("message_id") == "too_many_attempts")

            broker.clock.advance(by: 6)
            let unlocked = try await broker.unlock(third)
            #expect(unlocked.status == 200, "the wait is over: \(unlocked.body)")
        }
    }

    @Test("Review III item 5: assertions signed by another key count against the address only; the owner still unlocks", arguments: TestDatabase.kinds)
    func strangersCannotLockTheOwnerOut(kind: DatabaseKind) async throws {
        try await LiveBroker.run(kind) { broker in
            let login = try await broker.bankIDLogin("ola")
            let device = try await broker.registerDevice(TestDevice(), token: login.access)
            let stranger = P256.Signing.PrivateKey()
            for _ in 0..<12 {
                let challenge = try await broker.challengeValue(device.id, purpose: .unlock)
                let forged = try device.assertion(challenge: challenge, purpose: .unlock, audience: broker.baseURL, signedBy: stranger, issuedAt: broker.clock.now)
                #expect(try await broker.unlockGrant(forged).status == 400)
            }
            let unlocked = try await broker.unlock(device)
            #expect(unlocked.status == 200, "twelve forgeries neither block the device (5) nor the user (10): \(unlocked.body)")
            // The forger's address still runs out: 30 free failures, then a wait.
            for _ in 0..<18 {
                let challenge = try await broker.challengeValue(device.id, purpose: .unlock)
                let forged = try device.assertion(challenge: challenge, purpose: .unlock, audience: broker.baseURL, signedBy: stranger, issuedAt: broker.clock.now)
                #expect(try await broker.unlockGrant(forged).status == 400)
            }
            #expect(try await broker.challenge(device.id, purpose: .unlock).status == 429)
        }
    }
}
