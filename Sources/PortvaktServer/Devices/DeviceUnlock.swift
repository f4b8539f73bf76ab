import Foundation
import PortvaktCore
import PortvaktStorage

/// The unlock grant at `/oauth/token`: a device assertion for a challenge with purpose `unlock`
/// becomes a new session with `amr` `hwk` and `face` or `fpt` (RFC 8176), ending no later
/// than the device trust.
struct DeviceUnlock: Sendable {
    let broker: Broker

    /// The grant type (RFC 7523 §2.1: a JWT as an authorization grant; the assertion is the device's JWS).
    static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    /// With `proofKey` (the request's DPoP key) the new session is bound to it.
    func tokens(assertion: String, clientID: String, address: String, proofKey: String?) async throws -> TokenResponse {
        let verified = try await DeviceAssertionVerifier(broker: broker).verify(assertion, purpose: .unlock, address: address)
        let now = broker.now()
        let trust = DeviceTrust(lifetimes: broker.lifetimes)
        guard let trustedUntil = trust.trustedUntil(verified.user), trustedUntil > now else {
            try await broker.store.append(event(verified, outcome: "failure", now: now, details: ["reason": "trust_expired"]))
            throw DeviceTrust.reauthenticationRequired
        }
        let refreshToken = randomToken()
        let session: Session
        do {
            session = try await startSession(
                verified, clientID: clientID, trustedUntil: trustedUntil, proofKey: proofKey, refreshToken: refreshToken, now: now
            )
        } catch let error as StoreError where error.isNotFound && error.detail == "devices" {
            throw OAuthFailure.invalidGrant("The device was removed.", message: .deviceNotRecognised)
        }
        PortvaktMetrics.deviceUnlocked()
        return try await TokenIssuer(broker: broker).tokens(for: session, refreshToken: refreshToken, scope: "openid", nonce: nil, withIDToken: true)
    }

    private func startSession(
        _ verified: DeviceAssertionVerifier.Verified, clientID: String, trustedUntil: Date, proofKey: String?, refreshToken: String, now: Date
    ) async throws -> Session {
        try await broker.store.startDeviceSession(
            userID: verified.user.id, clientID: clientID, deviceID: verified.device.id, amr: ["hwk", verified.biometric.amr],
            acr: TokenIssuer.deviceACR, idleLifetime: broker.lifetimes.idle,
            absoluteLifetime: min(broker.lifetimes.absolute, trustedUntil.timeIntervalSince(now)), dpopJKT: proofKey,
            refreshTokenHash: RefreshTokenSecret.hash(refreshToken),
            audit: event(verified, outcome: "success", now: now, details: ["client": clientID]), now: now
        )
    }

    private func event(_ verified: DeviceAssertionVerifier.Verified, outcome: String, now: Date, details: [String: String]) -> AuditEvent {
        AuditEvent(
            occurredAt: now, action: "device.unlock", outcome: outcome, actorUserID: UUID(uuidString: verified.user.id),
            subjectType: "device", subjectID: verified.device.id, source: "device-unlock", details: details
        )
    }
}
