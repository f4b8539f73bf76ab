import Crypto
import Foundation
import PortvaktCore
import PortvaktStorage

/// Failed password attempts per account, failed device assertions per device and per user, and
/// both per client address, with growing waits: the last free failure blocks for 5 s, each
/// further one doubles the wait, up to 15 minutes. A success clears the account or device.
/// The counters live in the database, so every instance sees the same ones: N instances do not
/// give an attacker N times the attempts.
struct LoginThrottle: Sendable {
    struct Policy: Sendable {
        var freeFailures: Int
        var firstWait: TimeInterval = 5
        var longestWait: TimeInterval = 15 * 60
        /// A key with no failure for this long starts over.
        var forgetAfter: TimeInterval = 3600

        func wait(afterFailures failures: Int) -> TimeInterval? {
            let over = failures - freeFailures
            guard over >= 0 else { return nil }
            return min(firstWait * pow(2, Double(min(over, 20))), longestWait)
        }
    }

    enum Key: Hashable, Sendable {
        case account(String)
        case address(String)
        case device(String)
        case user(String)

        var policy: Policy {
            switch self {
            case .account: Policy(freeFailures: 5)
            case .address: Policy(freeFailures: 30)
            case .device: Policy(freeFailures: 5)
            case .user: Policy(freeFailures: 10)
            }
        }

        var kind: String {
            switch self {
            case .account: "account"
            case .address: "address"
            case .device: "device"
            case .user: "user"
            }
        }

        var address: String? {
            if case .address(let address) = self { address } else { nil }
        }

        /// What the database keeps: a hash, so no email or IP address is stored.
        var stored: String {
            let value = switch self {
            case .account(let value), .address(let value), .device(let value), .user(let value): value
            }
            return SHA256.hash(data: Data("\(kind):\(value)".utf8)).hexEncoded()
        }
    }

    let store: PortvaktStore

    /// Until when the keys are blocked; nil when an attempt may go ahead.
    func blockedUntil(_ keys: [Key], now: Date) async throws -> Date? {
        counted(try await store.throttleBlockedUntil(keys: keys.map(\.stored), now: now), keys)
    }

    /// The device and until when `keys` are blocked, in one read (see ``blockedUntil(_:now:)``).
    func device(id: String, blockedUntil keys: [Key], now: Date) async throws -> (device: Device?, blockedUntil: Date?) {
        let answer = try await store.device(id: id, blockedUntilFor: keys.map(\.stored), now: now)
        return (answer.device, counted(answer.blockedUntil, keys))
    }

    /// The user and until when `keys` are blocked, in one read (see ``blockedUntil(_:now:)``).
    func user(id: String, blockedUntil keys: [Key], now: Date) async throws -> (user: User?, blockedUntil: Date?) {
        let answer = try await store.user(id: id, blockedUntilFor: keys.map(\.stored), now: now)
        return (answer.user, counted(answer.blockedUntil, keys))
    }

    private func counted(_ until: Date?, _ keys: [Key]) -> Date? {
        if until != nil { PortvaktMetrics.throttleBlocked(kind: keys.first?.kind ?? "none") }
        return until
    }

    func recordFailure(_ keys: [Key], now: Date) async throws {
        try await store.recordThrottleFailures(keys.map { key in
            let policy = key.policy
            return ThrottleFailure(key: key.stored, forgetAfter: policy.forgetAfter) { policy.wait(afterFailures: $0) }
        }, now: now)
    }

    func recordSuccess(_ key: Key) async throws {
        try await store.clearThrottle(key: key.stored)
    }
}
