import Crypto
import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktProtocol
import PortvaktStorage
import PortvaktTestSupport
import SQLKit
import Testing

/// Issue 48 item 1: the biometric unlock's checks are described once (the domain's
/// `DeviceChallengeRule`) and run twice (SQLite's transaction, PostgreSQL's function). Each case
/// writes a device and the challenge it signed, asks the rule about that challenge, then unlocks:
/// both databases answer what the rule decided, and what the case expects, and the challenge is
/// used up whatever the answer (unless the request's proof was a replay, which changes nothing).
@Suite("Device unlock: one rule, both databases")
struct UnlockRuleTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        /// The refusal's reason, `device_removed`, or `started`.
        let expected: String
        var purpose = DevicePurpose.unlock.rawValue
        var challengeAction: String? = nil
        var claimedAction: String? = nil
        var challengeExpiresIn: TimeInterval = 120
        var challengeForAnotherDevice = false
        var challengeExists = true
        var deviceRevoked = false
        var proofReplayed = false
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "the device's own unlock challenge starts a session", expected: "started"),
        Case(name: "a challenge no one issued is refused", expected: "challenge_unknown_used_or_expired", challengeExists: false),
        Case(name: "an expired challenge is refused", expected: "challenge_unknown_used_or_expired", challengeExpiresIn: 0),
        Case(name: "another device's challenge is refused", expected: "challenge_for_another_device", challengeForAnotherDevice: true),
        Case(name: "a step-up challenge does not unlock", expected: "wrong_purpose", purpose: DevicePurpose.stepUp.rawValue),
        Case(name: "a challenge for an action does not unlock without it", expected: "wrong_action", challengeAction: "contacts.read"),
        Case(name: "an action claimed that the challenge does not carry is refused", expected: "wrong_action", claimedAction: "contacts.read"),
        Case(name: "a revoked device's challenge starts nothing", expected: "device_removed", deviceRevoked: true),
        Case(name: "a replayed DPoP proof changes nothing, the challenge included", expected: "replayed_proof", proofReplayed: true),
        // Two faults at once: the rule's order decides, and both databases keep it.
        Case(
            name: "an expired challenge of another device is expired first", expected: "challenge_unknown_used_or_expired", challengeExpiresIn: 0,
            challengeForAnotherDevice: true
        ),
        Case(
            name: "another device's step-up challenge is another device's first", expected: "challenge_for_another_device",
            purpose: DevicePurpose.stepUp.rawValue, challengeForAnotherDevice: true
        ),
        Case(
            name: "a step-up challenge for an action is the wrong purpose first", expected: "wrong_purpose", purpose: DevicePurpose.stepUp.rawValue,
            challengeAction: "contacts.read"
        ),
        Case(name: "a revoked device with a refused challenge is refused for the challenge", expected: "wrong_action", claimedAction: "contacts.read", deviceRevoked: true),
    ]

    static var arguments: [(DatabaseKind, Case)] { TestDatabase.kinds.flatMap { kind in cases.map { (kind, $0) } } }

    static func device(_ name: String, of user: User, in store: PortvaktStore) async throws -> Device {
        let key = DevicePublicKey(P256.Signing.PrivateKey().publicKey)
        return try await store.registerDevice(
            userID: user.id, name: name, platform: "ios", biometricKind: "face", publicKeyJWK: key.jwkJSON, keyThumbprint: key.thumbprint
        )
    }

    @Test("Each case: the store answers what the rule decides on the challenge, on each database", arguments: arguments)
    func storeFollowsTheRule(kind: DatabaseKind, rule: Case) async throws {
        try await TestDatabase.withStore(kind) { store in
            let user = try await store.createUser(displayName: "Ada")
            let device = try await Self.device("phone", of: user, in: store)
            let other = try await Self.device("tablet", of: user, in: store)
            let challenge = DeviceChallenge(
                challengeHash: SessionTokenTests.hash("c1"), deviceID: rule.challengeForAnotherDevice ? other.id : device.id, purpose: rule.purpose,
                action: rule.challengeAction, createdAt: Self.now.addingTimeInterval(-10), expiresAt: Self.now.addingTimeInterval(rule.challengeExpiresIn)
            )
            if rule.challengeExists { try await store.insertDeviceChallenge(challenge) }
            let previous = try await store.createSession(
                userID: user.id, clientID: "no.portvakt.app", deviceID: device.id, amr: ["hwk", "face"], acr: "urn:portvakt:acr:device-biometric",
                authTime: Self.now.addingTimeInterval(-60), idleLifetime: 3600, absoluteLifetime: 86400, now: Self.now.addingTimeInterval(-60)
            )
            if rule.deviceRevoked { #expect(try await store.revokeDevice(id: device.id, userID: user.id, now: Self.now)) }
            let proof = DPoPProofRecord(jtiHash: SessionTokenTests.hash("jti"), expiresAt: Self.now.addingTimeInterval(300))
            if rule.proofReplayed { #expect(try await store.recordDPoPProof(proof)) }
            let grant = DeviceUnlockGrant(
                challengeHash: challenge.challengeHash, claimedAction: rule.claimedAction,
                session: Session.starting(
                    userID: user.id, clientID: "no.portvakt.app", deviceID: device.id, amr: ["hwk", "face"],
                    acr: "urn:portvakt:acr:device-biometric", authTime: Self.now, idleLifetime: 3600, absoluteLifetime: 86400, now: Self.now
                ),
                refreshTokenHash: SessionTokenTests.hash("u1"), throttleKey: "device",
                audit: AuditEvent(occurredAt: Self.now, action: .deviceUnlock, outcome: "success"), proof: proof
            )
            let refusal = DeviceChallengeRule.refusal(ofUnlock: rule.challengeExists ? .init(challenge) : nil, for: grant)
            let refused = rule.expected.hasPrefix("challenge") || rule.expected.hasPrefix("wrong")
            #expect(refusal == (refused ? rule.expected : nil), "the rule")

            let answer: String = switch try await store.unlockDevice(grant) {
            case .started: "started"
            case .challengeRefused(let reason): reason
            case .deviceRemoved: "device_removed"
            case .replayedProof: "replayed_proof"
            }
            #expect(answer == rule.expected, "\(kind): the store answers as the rule and the case say")
            // Read as a row: taking it would hide an expired one.
            let left = try await store.driver.withSession { db in
                try await db.select().column("challenge_hash").from("device_challenges").where("challenge_hash", .equal, challenge.challengeHash).all().count
            }
            #expect((left == 1) == (rule.proofReplayed && rule.challengeExists), "\(kind): the challenge is used up, unless the proof was a replay")
            let started = try await store.session(id: grant.session.id)
            #expect((started != nil) == (rule.expected == "started"), "\(kind): a session starts only when the unlock does")
            let before = try await store.session(id: previous.id)
            #expect(before != nil, "\(kind): the device's earlier session is kept as a row")
            let replaced = before?.revokedReason == "replaced_by_unlock"
            #expect(replaced == (rule.expected == "started"), "\(kind): the device's session is replaced only by an unlock that starts")
            #expect(rule.deviceRevoked || replaced || before?.revokedAt == nil, "\(kind): a refusal leaves the device's session alone")
        }
    }
}
