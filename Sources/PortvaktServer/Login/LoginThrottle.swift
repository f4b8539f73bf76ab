import Foundation

/// Failed password attempts per account, failed device assertions per device and per user, and
/// both per client address, with growing waits: the last free failure blocks for 5 s, each
/// further one doubles the wait, up to 15 minutes. A success clears the account or device.
/// In memory, per server instance.
actor LoginThrottle {
    struct Policy: Sendable {
        var freeFailures: Int
        var firstWait: TimeInterval = 5
        var longestWait: TimeInterval = 15 * 60
        /// A key with no failure for this long starts over.
        var forgetAfter: TimeInterval = 3600
    }

    enum Key: Hashable, Sendable {
        case account(String)
        case address(String)
        case device(String)
        case user(String)
    }

    private struct Record {
        var failures: Int
        var lastFailure: Date
        var blockedUntil: Date
    }

    private let accountPolicy = Policy(freeFailures: 5)
    private let addressPolicy = Policy(freeFailures: 30)
    private let devicePolicy = Policy(freeFailures: 5)
    private let userPolicy = Policy(freeFailures: 10)
    private var records: [Key: Record] = [:]

    /// Until when the keys are blocked; nil when an attempt may go ahead.
    func blockedUntil(_ keys: [Key], now: Date) -> Date? {
        forgetOld(now: now)
        return keys.compactMap { records[$0]?.blockedUntil }.filter { $0 > now }.max()
    }

    func recordFailure(_ keys: [Key], now: Date) {
        for key in keys {
            let policy = policy(for: key)
            var record = records[key] ?? Record(failures: 0, lastFailure: now, blockedUntil: now)
            if now.timeIntervalSince(record.lastFailure) > policy.forgetAfter { record.failures = 0 }
            record.failures += 1
            record.lastFailure = now
            let over = record.failures - policy.freeFailures
            if over >= 0 {
                let wait = min(policy.firstWait * pow(2, Double(min(over, 20))), policy.longestWait)
                record.blockedUntil = now.addingTimeInterval(wait)
            }
            records[key] = record
        }
    }

    func recordSuccess(_ key: Key) {
        records[key] = nil
    }

    private func policy(for key: Key) -> Policy {
        switch key {
        case .account: accountPolicy
        case .address: addressPolicy
        case .device: devicePolicy
        case .user: userPolicy
        }
    }

    private func forgetOld(now: Date) {
        guard records.count > 1000 else { return }
        records = records.filter { now.timeIntervalSince($0.value.lastFailure) < policy(for: $0.key).forgetAfter || $0.value.blockedUntil > now }
    }
}
