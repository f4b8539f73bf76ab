import Foundation
import PortvaktCore
import PortvaktModels
import PortvaktStorage
import PortvaktTestSupport
import Testing

@Suite("Devices, audit trail and signing keys")
struct DeviceAuditKeyTests {
    @Test("A device key registers once; unknown biometric kinds are refused; revoked devices drop out", arguments: TestDatabase.kinds)
    func devices(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let user = try await store.createUser(displayName: "Ada")
            let device = try await store.registerDevice(
                userID: user.id, name: "iPhone", platform: "ios", biometricKind: "face", publicKeyJWK: "{}", keyThumbprint: "tp1"
            )
            await #expect(throws: StoreError.duplicate(nil)) {
                try await store.registerDevice(userID: user.id, name: "Again", platform: "ios", biometricKind: "face", publicKeyJWK: "{}", keyThumbprint: "tp1")
            }
            await #expect(throws: StoreError.constraint(nil)) {
                try await store.registerDevice(userID: user.id, name: "X", platform: "ios", biometricKind: "iris", publicKeyJWK: "{}", keyThumbprint: "tp2")
            }
            #expect(try await store.activeDevices(userID: user.id).map(\.id) == [device.id])
            try await store.revokeDevice(id: device.id, userID: user.id)
            #expect(try await store.activeDevices(userID: user.id).isEmpty)
        }
    }

    @Test("S6: a device or user and its throttle in one read, for known and unknown ids alike", arguments: TestDatabase.kinds)
    func deviceWithThrottle(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let now = Date()
            let user = try await store.createUser(displayName: "Ada")
            let device = try await store.registerDevice(
                userID: user.id, name: "iPhone", platform: "ios", biometricKind: "face", publicKeyJWK: "{}", keyThumbprint: "tp1"
            )
            let known = try await store.device(id: device.id, blockedUntilFor: ["device-key", "address-key"], now: now)
            #expect(known.device == device)
            #expect(known.blockedUntil == nil)
            let unknown = try await store.device(id: "no-such-device", blockedUntilFor: ["device-key"], now: now)
            #expect(unknown.device == nil && unknown.blockedUntil == nil)

            try await store.recordThrottleFailures([ThrottleFailure(key: "address-key", forgetAfter: 3600) { _ in 60 }], now: now)
            let blocked = try await store.device(id: device.id, blockedUntilFor: ["device-key", "address-key"], now: now)
            #expect(blocked.device == device)
            #expect(blocked.blockedUntil.map { abs($0.timeIntervalSince(now) - 60) < 1 } == true)
            let blockedUnknown = try await store.device(id: "no-such-device", blockedUntilFor: ["address-key"], now: now)
            #expect(blockedUnknown.device == nil && blockedUnknown.blockedUntil != nil)
            // Another key, or the block over: not blocked.
            #expect(try await store.device(id: device.id, blockedUntilFor: ["device-key"], now: now).blockedUntil == nil)
            #expect(try await store.device(id: device.id, blockedUntilFor: ["address-key"], now: now.addingTimeInterval(61)).blockedUntil == nil)
            let withoutKeys = try await store.device(id: device.id, blockedUntilFor: [], now: now)
            #expect(withoutKeys.device == device && withoutKeys.blockedUntil == nil)
            // The same read for a user.
            let owner = try await store.user(id: user.id, blockedUntilFor: ["address-key"], now: now)
            #expect(owner.user == user && owner.blockedUntil != nil)
            let nobody = try await store.user(id: "no-such-user", blockedUntilFor: ["user-key"], now: now)
            #expect(nobody.user == nil && nobody.blockedUntil == nil)
        }
    }

    @Test("Audit events read back in order, with secrets in details redacted", arguments: TestDatabase.kinds)
    func audit(kind: DatabaseKind) async throws {
        try await TestDatabase.withStore(kind) { store in
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            let first = AuditEvent(occurredAt: start, action: .personnummerUpdated, outcome: "updated",
                                   subjectType: "member", subjectID: "m1", source: "vipps-login", details: ["note": "from 15058600048"])
            let second = AuditEvent(occurredAt: start.addingTimeInterval(1), action: .personnummerConfirmed, outcome: "confirmed",
                                    subjectType: "member", subjectID: "m1", source: "bankid-login")
            try await store.append(second)
            try await store.append(first)
            let trail = try await store.auditEvents(subjectType: "member", subjectID: "m1")
            #expect(trail.map(\.action) == ["member.personnummer.updated", "member.personnummer.confirmed"])
            #expect(trail.first?.details == ["note": "from [redacted]"])
            #expect(trail.first?.source == "vipps-login")
        }
    }

    @Test("Signing keys persist sealed, survive a reload and rotate", arguments: TestDatabase.kinds)
    func signingKeys(kind: DatabaseKind) async throws {
        let cipher = try StorageTestKeys.cipher()
        try await TestDatabase.withStore(kind) { store in
            let first = try await SigningKeySet.load(from: store, cipher: cipher)
            #expect(try await SigningKeySet.load(from: store, cipher: cipher).active.kid == first.active.kid)
            _ = try await SigningKeySet.rotate(store, cipher: cipher)
            let rotated = try await SigningKeySet.load(from: store, cipher: cipher, now: Date().addingTimeInterval(SigningKeySet.publicationDelay))
            #expect(rotated.active.kid != first.active.kid && rotated.active(.rs256).kid != first.active(.rs256).kid)
            #expect(Set(rotated.verificationKeys.map(\.kid)) == [first.active.kid, rotated.active.kid, first.active(.rs256).kid, rotated.active(.rs256).kid])
            let stored = try await store.signingKeys()
            #expect(stored.count == 4, "an ES256 and an RS256 key, each rotated once")
            #expect(stored.filter { $0.retiredAt == nil }.map(\.algorithm).sorted { $0.rawValue < $1.rawValue } == [.es256, .rs256])
            for key in stored {
                #expect(!String(decoding: key.sealedPrivateKey.combined, as: UTF8.self).contains("PRIVATE KEY"))
            }
        }
    }
}
