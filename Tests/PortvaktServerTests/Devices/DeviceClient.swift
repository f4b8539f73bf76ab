import Crypto
import Foundation
import NIOHTTP1
import PortvaktCore
import Testing

/// A phone's biometric key, in software: what the Secure Enclave holds on a real device.
struct TestDevice: Sendable {
    let key = P256.Signing.PrivateKey()
    var id = ""
    var biometricKind = "face"

    var publicJWK: [String: String] { DevicePublicKey(key.publicKey).jwk }

    /// The device's signed answer; `as` lets a test sign with the wrong key or name another device.
    func assertion(
        challenge: String, purpose: DevicePurpose, action: String? = nil, audience: String, deviceID: String? = nil,
        signedBy other: P256.Signing.PrivateKey? = nil, issuedAt: Date = Date()
    ) throws -> String {
        try DeviceAssertion(
            deviceID: deviceID ?? id, audience: audience, challenge: challenge, purpose: purpose, action: action, issuedAt: issuedAt
        ).compact(signedBy: other ?? key)
    }
}

/// The app's side of device keys, step-up and the API, over HTTP against a ``LiveBroker``.
extension LiveBroker {
    /// A JSON request with an optional Bearer token.
    func api(
        _ method: HTTPMethod, _ path: String, token: String?, json: [String: Any]? = nil, headers: [(String, String)] = []
    ) async throws -> Reply {
        var all = headers + [("Accept", "application/json")]
        if let token { all.append(("Authorization", "Bearer \(token)")) }
        let raw = try json.map { ("application/json", try JSONSerialization.data(withJSONObject: $0)) }
        return try await send(path, method: method, raw: raw, headers: all)
    }

    /// A BankID login for a sandbox user; returns access and refresh token.
    func bankIDLogin(_ user: String) async throws -> (access: String, refresh: String) {
        let tokens = try await tokens(provider: "bankid", user: user)
        return (try #require(tokens["access_token"] as? String), try #require(tokens["refresh_token"] as? String))
    }

    /// A BankID login through the order flow (the BankID app approves), which does not depend
    /// on the sandbox's ID token times: usable after a test has moved the broker's clock.
    func bankIDOrderLogin(_ user: String) async throws -> (access: String, refresh: String) {
        let login = AppLogin()
        let order = try await startedOrder(login)
        #expect(try await bankIDApp(autoStartToken: order.autoStartToken, user: user, action: "approve").status == 200)
        let code = try #require(try await collect(order.session).string("code"))
        let tokens = try await login.redeem(code, at: self)
        return (try #require(tokens.string("access_token")), try #require(tokens.string("refresh_token")))
    }

    /// Registers `device` with a fresh login's token; returns it with its id.
    func registerDevice(_ device: TestDevice, token: String, name: String = "Karis iPhone") async throws -> TestDevice {
        let reply = try await api(.POST, "/v1/devices", token: token, json: [
            "name": name, "platform": "ios", "biometric_kind": device.biometricKind, "public_key": device.publicJWK,
        ])
        #expect(reply.status == 201, "registration answered \(reply.status): \(reply.body)")
        var registered = device
        registered.id = try #require(reply.string("id"))
        return registered
    }

    func challenge(_ deviceID: String, purpose: DevicePurpose, action: String? = nil, token: String? = nil) async throws -> Reply {
        var body: [String: Any] = ["purpose": purpose.rawValue]
        if let action { body["action"] = action }
        return try await api(.POST, "/v1/devices/\(deviceID)/challenges", token: token, json: body)
    }

    func challengeValue(_ deviceID: String, purpose: DevicePurpose, action: String? = nil, token: String? = nil) async throws -> String {
        let reply = try await challenge(deviceID, purpose: purpose, action: action, token: token)
        #expect(reply.status == 201, "challenge answered \(reply.status): \(reply.body)")
        return try #require(reply.string("challenge"))
    }

    func unlockGrant(_ assertion: String, clientID: String = "no.portvakt.app") async throws -> Reply {
        try await token([("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("client_id", clientID), ("assertion", assertion)])
    }

    /// Challenge, sign, grant: what the app does after Face ID succeeds.
    func unlock(_ device: TestDevice) async throws -> Reply {
        let challenge = try await challengeValue(device.id, purpose: .unlock)
        return try await unlockGrant(try device.assertion(challenge: challenge, purpose: .unlock, audience: baseURL, issuedAt: clock.now))
    }

    func stepUpReply(_ device: TestDevice, action: StepUpAction, token: String) async throws -> Reply {
        let challenge = try await challengeValue(device.id, purpose: .stepUp, action: action.rawValue, token: token)
        let assertion = try device.assertion(challenge: challenge, purpose: .stepUp, action: action.rawValue, audience: baseURL, issuedAt: clock.now)
        return try await api(.POST, "/v1/step-up", token: token, json: ["assertion": assertion])
    }

    /// The elevated token for `action`.
    func stepUp(_ device: TestDevice, action: StepUpAction, token: String) async throws -> String {
        let reply = try await stepUpReply(device, action: action, token: token)
        #expect(reply.status == 200, "step-up answered \(reply.status): \(reply.body)")
        return try #require(reply.string("access_token"))
    }

    func userID(token: String) async throws -> String {
        try #require(Self.claims(token)["sub"] as? String)
    }
}
