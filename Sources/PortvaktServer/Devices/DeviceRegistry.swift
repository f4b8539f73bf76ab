import Foundation
import Logging
import PortvaktCore
import PortvaktProtocol
import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// A member's device keys: registration (after a recent BankID, Vipps or password login, five at
/// most, of that login's level), raising a password-level key after BankID or Vipps,
/// the active list, revocation, and the single-use challenges their assertions answer.
struct DeviceRegistry: Sendable {
    let store: PortvaktStore
    let throttle: LoginThrottle
    let mailer: Mailer
    let lifetimes: SessionLifetimes
    let publicAddress: PublicAddress
    let logger: Logger
    let now: @Sendable () -> Date

    /// Active devices per user (phones, tablets, the CLI).
    static let limit = 5

    func active(of caller: APICaller) async throws -> [Device] {
        try await store.activeDevices(userID: caller.userID)
    }

    /// Revokes one of the caller's devices and ends the sessions it unlocked.
    func revoke(_ id: String, for caller: APICaller) async throws {
        let now = self.now()
        guard try await store.revokeDevice(id: id, userID: caller.userID, now: now) else { throw OAuthFailure.notFound("device") }
        try await audit(.deviceRevoked, device: id, user: caller.userID, now: now)
    }

    /// Registers the caller's device key at the level of what let it (``DeviceTrust/enrolmentAssurance(of:at:)``);
    /// the member is told by email.
    func register(_ body: DeviceRegistration, for caller: APICaller) async throws -> Device {
        let now = self.now()
        let trust = DeviceTrust(lifetimes: lifetimes)
        guard caller.satisfies(.deviceEnrol, at: now) else { throw Self.enrolmentNeedsLogin }
        let assurance = DeviceTrust.enrolmentAssurance(of: caller.session, at: now)
        guard let user = try await store.user(id: caller.userID), trust.isTrusted(user, assurance: assurance, at: now) else {
            throw OAuthFailure(
                error: .loginRequired, description: "Biometric unlock needs a BankID, Vipps or password login first.", message: .recentLoginRequired,
                status: .forbidden
            )
        }
        let key: DevicePublicKey
        do {
            key = try DevicePublicKey(jwk: body.publicKey)
        } catch {
            throw OAuthFailure.invalidRequest(error.description)
        }
        let name = body.name.trimmingCharacters(in: .whitespaces)
        guard (1...DeviceRegistration.nameLimit).contains(name.count), name.unicodeScalars.allSatisfy(DeviceRegistration.mayNameDevice) else {
            throw OAuthFailure.invalidRequest("name must be 1 to \(DeviceRegistration.nameLimit) characters without control or format characters.")
        }
        guard Self.platforms.contains(body.platform) else {
            throw OAuthFailure.invalidRequest("platform must be one of \(Self.platforms.sorted().joined(separator: ", ")).")
        }
        guard let biometric = BiometricKind(rawValue: body.biometricKind) else {
            throw OAuthFailure.invalidRequest("biometric_kind must be face or fingerprint.")
        }
        let device: Device
        do {
            device = try await store.registerDevice(
                userID: caller.userID, name: name, platform: body.platform, biometricKind: biometric.rawValue,
                publicKeyJWK: key.jwkJSON, keyThumbprint: key.thumbprint, assurance: assurance.rawValue, limit: Self.limit,
                sessionID: caller.session.id, now: now
            )
        } catch let error as StoreError where error.isDuplicate {
            throw OAuthFailure(error: .conflict, description: "This key is registered already.", status: .conflict)
        } catch let error as StoreError where error.isNotFound && error.detail == "sessions" {
            // Ended meanwhile (a new password, a logout): no key outlives the session that enrolled it.
            throw OAuthFailure.sessionExpired
        } catch let error as StoreError where error.isLimitReached {
            throw OAuthFailure(
                error: .deviceLimitReached, description: "At most \(Self.limit) devices; revoke one first.", message: .deviceLimitReached, status: .conflict
            )
        }
        try await audit(
            .deviceRegistered, device: device.id, user: caller.userID, now: now,
            details: ["platform": device.platform, "biometric_kind": device.biometricKind, "assurance": assurance.rawValue]
        )
        await mailer.notify(.deviceAdded(deviceName: name), to: user.email, logger: logger)
        return device
    }

    /// Raises the caller's password-level device to BankID's or Vipps's level, after their fresh
    /// login (the route's policy, ``SensitiveAction/deviceRaise``); a device at that level already
    /// stays as it is.
    func raise(_ id: String, for caller: APICaller) async throws -> Device {
        guard caller.satisfies(.deviceRaise, at: now()) else { throw OAuthFailure.freshLoginRequired }
        guard let (device, raised) = try await store.raiseDevice(id: id, userID: caller.userID) else { throw Self.unknownDevice }
        if raised { try await audit(.deviceRaised, device: device.id, user: caller.userID, now: now()) }
        return device
    }

    /// A single-use challenge for the device; `stepUpCaller` authenticates the signed-in user a
    /// step-up's challenge is for.
    func challenge(
        _ body: DeviceChallengeRequest, deviceID: String, address: String, stepUpCaller: () async throws -> APICaller
    ) async throws -> DeviceChallengeIssued {
        guard let purpose = DevicePurpose(rawValue: body.purpose) else { throw OAuthFailure.invalidRequest("purpose must be unlock or step-up.") }
        let now = self.now()
        let (device, blockedUntil) = try await throttle.device(id: deviceID, blockedUntil: [.device(deviceID), .address(address)], now: now)
        if blockedUntil != nil {
            throw GrantRefusal.throttled
        }
        var action: StepUpAction?
        if purpose == .stepUp {
            guard let named = body.action.flatMap(StepUpAction.init(rawValue:)) else {
                throw OAuthFailure.invalidRequest("action must be one of \(StepUpAction.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            // The password confirms an enrolment, never a key of this phone (DeviceTrust).
            if named == .deviceEnrol {
                throw OAuthFailure.invalidRequest("device.enrol is confirmed with the password (POST /v1/step-up/password) or a new login, not a device key.")
            }
            action = named
        } else if body.action != nil {
            throw OAuthFailure.invalidRequest("An unlock challenge has no action.")
        }
        guard let device, device.revokedAt == nil else { throw Self.unknownDevice }
        if purpose == .stepUp {
            let caller = try await stepUpCaller()
            guard caller.userID == device.userId else { throw Self.unknownDevice }
        }
        let challenge = randomToken()
        let expiresAt = now.addingTimeInterval(lifetimes.deviceChallenge)
        try await store.insertDeviceChallenge(DeviceChallenge(
            challengeHash: RefreshTokenSecret.hash(challenge), deviceID: device.id, purpose: purpose.rawValue, action: action?.rawValue,
            createdAt: now, expiresAt: expiresAt
        ))
        return DeviceChallengeIssued(
            challenge: challenge, deviceId: device.id, purpose: purpose.rawValue, action: action?.rawValue, audience: publicAddress.current,
            expiresAt: expiresAt.formatted(.iso8601), expiresIn: Int(lifetimes.deviceChallenge)
        )
    }

    /// The device just opened `action` for its user: it was used, and that is audited.
    func recordStepUp(by device: Device, for caller: APICaller, action: StepUpAction) async throws {
        let now = self.now()
        try await store.markDeviceUsed(id: device.id, now: now)
        try await store.append(AuditEvent(
            occurredAt: now, action: .deviceStepUp, outcome: "success", actorUserID: UUID(uuidString: caller.userID),
            subjectType: "device", subjectID: device.id, source: "device-step-up", details: ["action": action.rawValue]
        ))
    }

    private func audit(_ action: AuditAction, device: String, user: String, now: Date, details: [String: String] = [:]) async throws {
        try await store.append(AuditEvent(
            occurredAt: now, action: action, outcome: "success", actorUserID: UUID(uuidString: user), subjectType: "device", subjectID: device, details: details
        ))
    }

    static let platforms: Set<String> = ["ios", "android", "macos", "linux"]

    /// Too late after the login, or from a device unlock: the app asks for the password or a new login.
    static let enrolmentNeedsLogin = OAuthFailure(
        error: .loginRequired,
        description: "Register devices within a few minutes of a BankID, Vipps or password login (not a device unlock), or confirm with the password (a step-up for device.enrol).",
        message: .recentLoginRequired, status: .forbidden
    )

    /// Unknown, revoked, or another user's: the app clears its key and offers BankID or Vipps.
    static let unknownDevice = OAuthFailure(
        error: .notFound, description: "No active device has this id.", message: .deviceNotRecognised, status: .notFound
    )
}
