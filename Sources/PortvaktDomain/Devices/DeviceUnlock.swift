import Foundation
import Logging
import PortvaktCore
import PortvaktModels
import PortvaktProtocol

/// What an unlock writes: the session it starts (one trip, the challenge taken with it), its DPoP proof, and its audit.
public protocol DeviceUnlockStore: Sendable {
    func unlockDevice(_ grant: DeviceUnlockGrant) async throws -> DeviceUnlockOutcome
    func recordDPoPProof(_ record: DPoPProofRecord) async throws -> Bool
    func append(_ event: AuditEvent) async throws
}

/// The unlock grant at `/oauth/token`: a device assertion for a challenge with purpose `unlock`
/// becomes a new session with `amr` `hwk` and `face` or `fpt` (RFC 8176), ending no later
/// than the device trust, and of the key's level: a key a password enrolled opens a session
/// with `acr` ``Authentication/devicePasswordACR``.
public struct DeviceUnlock: Sendable {
    let store: any DeviceUnlockStore
    let assertions: DeviceAssertionVerifier
    let tokens: TokenIssuer
    let lifetimes: SessionLifetimes
    let logger: Logger

    public init(store: any DeviceUnlockStore, assertions: DeviceAssertionVerifier, tokens: TokenIssuer, lifetimes: SessionLifetimes, logger: Logger) {
        self.store = store
        self.assertions = assertions
        self.tokens = tokens
        self.lifetimes = lifetimes
        self.logger = logger
    }

    /// The grant type (RFC 7523 §2.1: a JWT as an authorization grant; the assertion is the device's JWS).
    public static let grantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    /// With `proof` (the request's verified DPoP proof, not yet recorded) the new session is bound
    /// to its key; the proof is recorded in the unlock's own transaction.
    public func tokens(assertion: String, clientID: String, address: String, proof: ProofOfPossession?) async throws -> TokenResponse {
        let verifier = assertions
        let signed = try await verifier.signed(assertion, address: address)
        // What the key stands for; a value this release does not know counts as the password's, the lower one.
        let assurance = DeviceAssurance(rawValue: signed.device.assurance) ?? .password
        guard verifier.claimsProblem(signed, purpose: .unlock) == nil,
              let user = signed.user, user.disabledAt == nil,
              let biometric = BiometricKind(rawValue: signed.device.biometricKind),
              let trustedUntil = DeviceTrust(lifetimes: lifetimes).trustedUntil(user, assurance: assurance), trustedUntil > signed.now
        else {
            // Refused before the challenge is taken: the verifier takes it and names the problem
            // (a problem with the challenge first, as for every assertion); the device trust is
            // all that can be left once it returns.
            if let proof { try await record(proof) }
            let verified = try await verifier.verify(signed, purpose: .unlock)
            try await store.append(event(verified.device, outcome: "failure", now: signed.now, details: ["reason": "trust_expired"]))
            throw GrantRefusal.reauthenticationRequired
        }
        let refreshToken = randomToken()
        let session = Session.starting(
            userID: user.id, clientID: clientID, deviceID: signed.device.id, amr: ["hwk", biometric.amr],
            acr: assurance == .password ? Authentication.devicePasswordACR : Authentication.deviceACR,
            authTime: signed.now, idleLifetime: lifetimes.idle,
            absoluteLifetime: min(lifetimes.absolute, trustedUntil.timeIntervalSince(signed.now)), dpopJKT: proof?.key, now: signed.now
        )
        let grant = DeviceUnlockGrant(
            challengeHash: RefreshTokenSecret.hash(signed.claims.challenge), claimedAction: signed.claims.action, session: session,
            refreshTokenHash: RefreshTokenSecret.hash(refreshToken), throttleKey: verifier.throttle.storedKey(for: .device(signed.device.id)),
            audit: event(signed.device, outcome: "success", now: signed.now, details: ["client": clientID]), proof: proof?.record
        )
        let unlocked: DeviceUnlockOutcome
        do {
            unlocked = try await store.unlockDevice(grant)
        } catch let error as StoreError where error.isDisabledAccount {
            // Disabled since the check above: no session starts (migration 28).
            throw GrantRefusal.invalidGrant("The account is disabled.", message: .accountDisabled)
        }
        switch unlocked {
        case .started(let started):
            DomainMetrics.deviceUnlocked()
            return try await tokens.tokens(
                for: started.session, organisations: started.organisations, user: user, refreshToken: refreshToken, nonce: nil,
                withIDToken: true
            )
        case .challengeRefused(let reason):
            throw await verifier.refuse(reason, signed)
        case .deviceRemoved:
            throw GrantRefusal.invalidGrant("The device was removed.", message: .deviceNotRecognised)
        case .replayedProof:
            throw GrantRefusal.proofReplayed
        }
    }

    /// Records the proof's `jti` on its own, for a refused unlock (a granted one records it in its transaction).
    private func record(_ proof: ProofOfPossession) async throws(GrantRefusal) {
        let recorded: Bool
        do {
            recorded = try await store.recordDPoPProof(proof.record)
        } catch {
            logger.error("A DPoP proof could not be recorded", metadata: ["error": "\(error)"])
            throw .unavailable
        }
        guard recorded else { throw .proofReplayed }
    }

    private func event(_ device: Device, outcome: String, now: Date, details: [String: String]) -> AuditEvent {
        AuditEvent(
            occurredAt: now, action: .deviceUnlock, outcome: outcome, actorUserID: UUID(uuidString: device.userId),
            subjectType: "device", subjectID: device.id, source: "device-unlock", details: details
        )
    }
}
