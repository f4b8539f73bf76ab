import Foundation
import Logging
import JWTKit
import PortvaktCore
import PortvaktModels

/// Takes a device challenge once, and records a refused assertion.
public protocol DeviceChallengeStore: Sendable {
    func takeDeviceChallenge(hash: Data, now: Date) async throws -> DeviceChallenge?
    func append(_ event: AuditEvent) async throws
}

/// Checks a device's signed answer to a challenge (DESIGN.md, "Biometric unlock and step-up").
///
/// Refused: a header that is not ES256 or that points at keys, an unknown or revoked device, a
/// signature by any other key, a challenge that is unknown, used or expired, a challenge for
/// another device, purpose or action, and claims that disagree with it. The challenge is taken
/// (deleted) as soon as the signature holds, so one challenge answers at most one assertion.
/// Failures are throttled per device, per user and per client address, and audited.
public struct DeviceAssertionVerifier: Sendable {
    let store: any DeviceChallengeStore
    let throttle: LoginThrottle
    let publicAddress: PublicAddress
    /// How long a challenge is good for; a signature older than that is stale.
    let challengeLifetime: TimeInterval
    let logger: Logger
    let now: @Sendable () -> Date

    public init(
        store: any DeviceChallengeStore, throttle: LoginThrottle, publicAddress: PublicAddress, challengeLifetime: TimeInterval, logger: Logger,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.throttle = throttle
        self.publicAddress = publicAddress
        self.challengeLifetime = challengeLifetime
        self.logger = logger
        self.now = now
    }

    public struct Verified: Sendable {
        public let device: Device
        public let user: User
        public let biometric: BiometricKind
        public let action: StepUpAction?
    }

    /// Clocks on phones drift; an assertion signed a little "in the future" is still fine.
    static let clockSkew: TimeInterval = 30

    /// An assertion signed by a registered device that is not revoked; its challenge not yet taken.
    public struct Signed: Sendable {
        public let device: Device
        /// The device's user, read with the user's failure counter; nil when gone.
        public let user: User?
        public let claims: DeviceAssertion
        /// The failure counters a refusal counts against.
        let keys: [LoginThrottle.Key]
        public let now: Date
    }

    /// - Throws: ``GrantRefusal`` for a refused assertion; a storage error as it is (the device
    ///   must not be told it is unknown because the database is away).
    public func verify(_ assertion: String, purpose: DevicePurpose, address: String) async throws -> Verified {
        try await verify(try await signed(assertion, address: address), purpose: purpose)
    }

    /// Checks the header, the failure counters, the device and the signature; the challenge is left alone.
    public func signed(_ assertion: String, address: String) async throws -> Signed {
        let now = self.now()
        guard assertion.utf8.count <= 4096, let header = JOSEHeader(compactJWS: assertion) else {
            throw await refuse("malformed", keys: [.address(address)], now: now)
        }
        guard header.alg == "ES256", header.keyReferences.isEmpty, let deviceID = header.kid else {
            throw await refuse("not_es256", keys: [.address(address)], now: now)
        }
        // The counters of device and address come with the device, the user's with the user.
        let (found, deviceBlocked) = try await throttle.device(id: deviceID, blockedUntil: [.device(deviceID), .address(address)], now: now)
        if deviceBlocked != nil {
            throw GrantRefusal.throttled
        }
        guard let device = found else {
            throw await refuse("unknown_device", keys: [.address(address)], now: now, message: .deviceNotRecognised)
        }
        let keys: [LoginThrottle.Key] = [.device(device.id), .user(device.userId), .address(address)]
        let (user, userBlocked) = try await throttle.user(id: device.userId, blockedUntil: [.user(device.userId)], now: now)
        if userBlocked != nil {
            throw GrantRefusal.throttled
        }
        guard device.revokedAt == nil else {
            throw await refuse("device_revoked", device: device, keys: keys, now: now, message: .deviceNotRecognised)
        }
        // Anyone who knows a device id can sign with some other key: that counts against their
        // address only, or strangers could lock the owner out (review III, item 5).
        guard let claims = await signedClaims(assertion, by: device) else {
            throw await refuse("bad_signature", device: device, keys: [.address(address)], now: now)
        }
        return Signed(device: device, user: user, claims: claims, keys: keys, now: now)
    }

    /// Takes the challenge, then checks it, the claims and the user.
    public func verify(_ signed: Signed, purpose: DevicePurpose) async throws -> Verified {
        let (device, claims) = (signed.device, signed.claims)
        let challenge = try await store.takeDeviceChallenge(hash: RefreshTokenSecret.hash(claims.challenge), now: signed.now)
        let problem = DeviceChallengeRule.refusal(
            of: challenge.map(DeviceChallengeRule.TakenChallenge.init), signedBy: device.id, purpose: purpose, claimedPurpose: claims.purpose,
            action: claims.action, at: signed.now.millisecondsSince1970
        ) ?? claimsProblem(signed, purpose: purpose)
        if let problem {
            throw await refuse(problem, signed)
        }
        guard let user = signed.user, let biometric = BiometricKind(rawValue: device.biometricKind) else {
            throw await refuse("user_gone", signed, message: .deviceNotRecognised)
        }
        // The phone is kept while the account is disabled, and refused with the words every way
        // in uses (issue 45 item 5); not counted as a failure, so enabling the account gives it back as it was.
        guard user.disabledAt == nil else {
            throw await refuse("user_disabled", signed, message: .accountDisabled, counted: false)
        }
        try await throttle.recordSuccess(.device(device.id))
        return Verified(device: device, user: user, biometric: biometric, action: claims.action.flatMap(StepUpAction.init(rawValue:)))
    }

    /// What is wrong with the claims on their own (the challenge aside), if anything.
    public func claimsProblem(_ signed: Signed, purpose: DevicePurpose) -> String? {
        let claims = signed.claims
        return if claims.purpose != purpose { "wrong_purpose" }
        else if (purpose == .stepUp) != (claims.action.flatMap(StepUpAction.init(rawValue:)) != nil) { "wrong_action" }
        else if claims.iss != signed.device.id || claims.aud != publicAddress.current { "wrong_issuer_or_audience" }
        else if abs(TimeInterval(claims.iat) - signed.now.timeIntervalSince1970) > challengeLifetime + Self.clockSkew { "stale_signature" }
        else { nil }
    }

    /// The claims, when the JWS verifies with the device's registered key and nothing else.
    private func signedClaims(_ assertion: String, by device: Device) async -> DeviceAssertion? {
        guard let jwk = try? JSONDecoder().decode([String: String].self, from: Data(device.publicKeyJwk.utf8)),
              let key = try? DevicePublicKey(jwk: jwk),
              let publicKey = try? ES256PublicKey(backing: key.verifyingKey)
        else { return nil }
        let collection = JWTKeyCollection()
        await collection.add(ecdsa: publicKey, kid: JWKIdentifier(string: device.id))
        return try? await collection.verify(assertion, as: DeviceAssertion.self)
    }

    /// Counts a failure against the signed assertion's device, user and address, and audits it.
    /// - Parameter counted: false for a refusal that is no sign of guessing (a disabled account).
    public func refuse(_ reason: String, _ signed: Signed, message: UserMessage = .biometricUnlockFailed, counted: Bool = true) async -> GrantRefusal {
        await refuse(reason, device: signed.device, keys: signed.keys, now: signed.now, message: message, counted: counted)
    }

    private func refuse(
        _ reason: String, device: Device? = nil, keys: [LoginThrottle.Key], now: Date, message: UserMessage = .biometricUnlockFailed,
        counted: Bool = true
    ) async -> GrantRefusal {
        if counted { try? await throttle.recordFailure(keys, now: now) }
        try? await store.append(AuditEvent(
            occurredAt: now, action: .deviceAssertionFailed, outcome: "failure", actorUserID: device.flatMap { UUID(uuidString: $0.userId) },
            subjectType: device == nil ? nil : "device", subjectID: device?.id,
            details: ["reason": reason, "client_address": keys.lazy.compactMap(\.address).first ?? "unknown"]
        ))
        logger.notice("Device assertion refused", metadata: ["reason": "\(reason)"])
        DomainMetrics.deviceAssertionFailed(reason: reason)
        return GrantRefusal.invalidGrant("The device assertion was refused (\(reason.replacingOccurrences(of: "_", with: " "))).", message: message)
    }
}

extension DeviceAssertion: JWTPayload {
    /// The claims are checked against the stored challenge by ``DeviceAssertionVerifier``, not here.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}
