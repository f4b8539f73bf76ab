import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktStorage

/// The user's device keys and their challenges:
///
/// - `POST /v1/devices` registers a P-256 public key (Bearer; a BankID, Vipps or password login
///   in the last few minutes);
/// - `GET /v1/devices` lists the active ones, `DELETE /v1/devices/{id}` revokes one (and ends
///   the sessions it unlocked);
/// - `POST /v1/devices/{id}/challenges` issues a single-use challenge: `unlock` needs nothing
///   but the device id (the app is locked), `step-up` needs the user's Bearer token.
struct DeviceRoutes {
    let broker: Broker
    /// Active devices per user (phones, tablets, the CLI).
    static let limit = 5

    func register(on router: Router<PortvaktRequestContext>) {
        router.post("/v1/devices") { request, context in
            try await registerDevice(request, context)
        }
        router.get("/v1/devices") { request, context in
            let caller = try context.caller()
            let devices = try await broker.store.activeDevices(userID: caller.userID)
            return try APIResponse.json(["devices": devices.map { DeviceInfo($0, current: caller.session.deviceId) }])
        }
        router.delete("/v1/devices/:id") { request, context in
            let caller = try context.caller()
            let id = context.parameters.get("id") ?? ""
            let now = broker.now()
            guard try await broker.store.revokeDevice(id: id, userID: caller.userID, now: now) else { throw OAuthFailure.notFound("device") }
            try await audit("device.revoked", device: id, user: caller.userID, now: now)
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        }
        router.post("/v1/devices/:id/challenges") { request, context in
            try await challenge(request, deviceID: context.parameters.get("id") ?? "", address: context.clientAddress)
        }
    }

    private func registerDevice(_ request: Request, _ context: PortvaktRequestContext) async throws -> Response {
        let caller = try context.caller()
        let body = try await request.decodeJSON(Registration.self)
        let now = broker.now()
        let trust = DeviceTrust(lifetimes: broker.lifetimes)
        guard trust.mayRegisterDevice(from: caller.session, at: now) else {
            throw OAuthFailure(
                error: "login_required", description: "Register devices within a few minutes of a BankID or Vipps login, not from a password or a device unlock.",
                message: .recentLoginRequired, status: .forbidden
            )
        }
        guard let user = try await broker.store.user(id: caller.userID), trust.isTrusted(user, at: now) else {
            throw OAuthFailure(
                error: "login_required", description: "Biometric unlock needs a BankID or Vipps login first.", message: .recentLoginRequired, status: .forbidden
            )
        }
        let key: DevicePublicKey
        do {
            key = try DevicePublicKey(jwk: body.publicKey)
        } catch {
            throw OAuthFailure.invalidRequest(error.description)
        }
        let name = body.name.trimmingCharacters(in: .whitespaces)
        guard (1...64).contains(name.count), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw OAuthFailure.invalidRequest("name must be 1 to 64 characters without control characters.")
        }
        guard Self.platforms.contains(body.platform) else {
            throw OAuthFailure.invalidRequest("platform must be one of \(Self.platforms.sorted().joined(separator: ", ")).")
        }
        guard let biometric = BiometricKind(rawValue: body.biometricKind) else {
            throw OAuthFailure.invalidRequest("biometric_kind must be face or fingerprint.")
        }
        let device: Device
        do {
            device = try await broker.store.registerDevice(
                userID: caller.userID, name: name, platform: body.platform, biometricKind: biometric.rawValue,
                publicKeyJWK: key.jwkJSON, keyThumbprint: key.thumbprint, limit: Self.limit, now: now
            )
        } catch let error as StoreError where error.isDuplicate {
            throw OAuthFailure(error: "conflict", description: "This key is registered already.", status: .conflict)
        } catch let error as StoreError where error.isLimitReached {
            throw OAuthFailure(
                error: "device_limit_reached", description: "At most \(Self.limit) devices; revoke one first.", message: .deviceLimitReached, status: .conflict
            )
        }
        try await audit("device.registered", device: device.id, user: caller.userID, now: now, details: ["platform": device.platform, "biometric_kind": device.biometricKind])
        await broker.mailer.notify(.deviceAdded(deviceName: name), to: user.email, logger: broker.logger)
        return try APIResponse.json(DeviceInfo(device, current: nil), status: .created)
    }

    private func challenge(_ request: Request, deviceID: String, address: String) async throws -> Response {
        let body = try await request.decodeJSON(ChallengeRequest.self)
        guard let purpose = DevicePurpose(rawValue: body.purpose) else { throw OAuthFailure.invalidRequest("purpose must be unlock or step-up.") }
        let now = broker.now()
        let (device, blockedUntil) = try await broker.throttle.device(id: deviceID, blockedUntil: [.device(deviceID), .address(address)], now: now)
        if blockedUntil != nil {
            throw DeviceAssertionVerifier.throttled
        }
        var action: StepUpAction?
        if purpose == .stepUp {
            guard let named = body.action.flatMap(StepUpAction.init(rawValue:)) else {
                throw OAuthFailure.invalidRequest("action must be one of \(StepUpAction.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            action = named
        } else if body.action != nil {
            throw OAuthFailure.invalidRequest("An unlock challenge has no action.")
        }
        guard let device, device.revokedAt == nil else { throw Self.unknownDevice }
        if purpose == .stepUp {
            // The route is anonymous (an unlock's signature is its credential); a step-up's challenge is the signed-in user's.
            let caller = try await APICaller.authenticate(request, broker: broker)
            guard caller.userID == device.userId else { throw Self.unknownDevice }
        }
        let challenge = randomToken()
        let expiresAt = now.addingTimeInterval(broker.lifetimes.deviceChallenge)
        try await broker.store.insertDeviceChallenge(DeviceChallenge(
            challengeHash: RefreshTokenSecret.hash(challenge), deviceID: device.id, purpose: purpose.rawValue, action: action?.rawValue,
            createdAt: now, expiresAt: expiresAt
        ))
        return try APIResponse.json(ChallengeIssued(
            challenge: challenge, deviceId: device.id, purpose: purpose.rawValue, action: action?.rawValue, audience: broker.issuer,
            expiresAt: expiresAt.formatted(.iso8601), expiresIn: Int(broker.lifetimes.deviceChallenge)
        ), status: .created)
    }

    private func audit(_ action: String, device: String, user: String, now: Date, details: [String: String] = [:]) async throws {
        try await broker.store.append(AuditEvent(
            occurredAt: now, action: action, outcome: "success", actorUserID: UUID(uuidString: user), subjectType: "device", subjectID: device, details: details
        ))
    }

    static let platforms: Set<String> = ["ios", "android", "macos", "linux"]

    /// Unknown, revoked, or another user's: the app clears its key and offers BankID or Vipps.
    static let unknownDevice = OAuthFailure(
        error: "not_found", description: "No active device has this id.", message: .deviceNotRecognised, status: .notFound
    )
}

private struct Registration: Decodable {
    let name: String
    let platform: String
    let biometricKind: String
    let publicKey: [String: String]

    enum CodingKeys: String, CodingKey {
        case name, platform
        case biometricKind = "biometric_kind"
        case publicKey = "public_key"
    }
}

private struct ChallengeRequest: Decodable {
    let purpose: String
    let action: String?
}

private struct ChallengeIssued: Encodable {
    let challenge: String
    let deviceId: String
    let purpose: String
    let action: String?
    /// What the assertion's `aud` must be.
    let audience: String
    let expiresAt: String
    let expiresIn: Int
}

struct DeviceInfo: Encodable {
    let id: String
    let name: String
    let platform: String
    let biometricKind: String
    let createdAt: String
    let lastUsedAt: String?
    /// Whether the calling session was unlocked by this device.
    let current: Bool

    init(_ device: Device, current: String?) {
        id = device.id
        name = device.name
        platform = device.platform
        biometricKind = device.biometricKind
        createdAt = Date(millisecondsSince1970: device.createdAt).formatted(.iso8601)
        lastUsedAt = device.lastUsedAt.map { Date(millisecondsSince1970: $0).formatted(.iso8601) }
        self.current = current == device.id
    }
}
