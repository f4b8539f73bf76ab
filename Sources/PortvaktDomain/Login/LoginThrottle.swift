import Crypto
import Foundation
import PortvaktCore
import PortvaktModels

/// What the login throttle counts in: blocks by key, reserved attempts and failures, each counted in one statement.
public protocol ThrottleStore: Sendable {
    func throttleBlockedUntil(keys: [String], now: Date) async throws -> Date?
    func device(id: String, blockedUntilFor throttleKeys: [String], now: Date) async throws -> (device: Device?, blockedUntil: Date?)
    func user(id: String, blockedUntilFor throttleKeys: [String], now: Date) async throws -> (user: User?, blockedUntil: Date?)
    func recordThrottleFailures(_ failures: [ThrottleFailure], now: Date) async throws
    func reserveThrottleAttempt(_ failures: [ThrottleFailure], now: Date) async throws -> Date?
    func releaseThrottleAttempt(key: String) async throws
    func clearThrottle(key: String) async throws
}

/// Failed password attempts per account, failed device assertions per device and per user, and
/// both per client address, with growing waits: the last free failure blocks for 5 s, each
/// further one doubles the wait, up to 15 minutes. A success clears the account or device.
/// The counters live in the database, so every instance sees the same ones: N instances do not
/// give an attacker N times the attempts. A counter's key there is an HMAC under a key the
/// database does not hold (``storedKey(for:)``).
public struct LoginThrottle: Sendable {
    public struct Policy: Sendable {
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

    public enum Key: Hashable, Sendable {
        case account(String)
        case address(String)
        case device(String)
        case user(String)
        /// BankID orders started from an address: not failures, but each costs a call to BankID.
        case orderStart(String, allowed: Int)
        /// Wrong membership codes of one BankID or Vipps identity, across its claims (S15).
        case claimant(String)
        /// Membership codes sent to one email address, found on a record or not (S15).
        case claimEmail(String)
        /// Membership codes one BankID or Vipps identity asked for, across its claims (S15).
        case claimSends(String)

        var policy: Policy {
            switch self {
            case .account: Policy(freeFailures: 5)
            case .address: Policy(freeFailures: 30)
            case .device: Policy(freeFailures: 5)
            case .user: Policy(freeFailures: 10)
            case .orderStart(_, let allowed): Policy(freeFailures: allowed, forgetAfter: 600)
            case .claimant: Policy(freeFailures: 5)
            case .claimEmail: Policy(freeFailures: 5, forgetAfter: 86_400)
            case .claimSends: Policy(freeFailures: 6, forgetAfter: 86_400)
            }
        }

        var kind: String {
            switch self {
            case .account: "account"
            case .address: "address"
            case .device: "device"
            case .user: "user"
            case .orderStart: "order_start"
            case .claimant: "claimant"
            case .claimEmail: "claim_email"
            case .claimSends: "claim_sends"
            }
        }

        public var address: String? {
            if case .address(let address) = self { address } else { nil }
        }

        var value: String {
            switch self {
            case .account(let value), .address(let value), .device(let value), .user(let value), .orderStart(let value, _),
                 .claimant(let value), .claimEmail(let value), .claimSends(let value): value
            }
        }
    }

    let store: any ThrottleStore
    /// What the stored keys are HMACs under (`DataProtectionKeys.key(for: .throttleKeys)`).
    let hmacKey: SymmetricKey
    /// BankID orders an address may start before it waits (`PORTVAKT_BANKID_ORDERS_PER_ADDRESS`);
    /// the count starts over after ten minutes without one.
    public var orderStartsPerAddress = 20

    public init(store: any ThrottleStore, hmacKey: SymmetricKey, orderStartsPerAddress: Int = 20) {
        self.store = store
        self.hmacKey = hmacKey
        self.orderStartsPerAddress = orderStartsPerAddress
    }

    /// What the database keeps for `throttleKey`: an HMAC, so no email, IP address or identity is
    /// stored. Keyed, because the values are few enough to guess: whoever reads the table could
    /// hash every address or a list of emails and match the rows.
    public func storedKey(for throttleKey: Key) -> String {
        HMAC<SHA256>.authenticationCode(for: Data("\(throttleKey.kind):\(throttleKey.value)".utf8), using: hmacKey).hexEncoded()
    }

    /// Until when the keys are blocked; nil when an attempt may go ahead.
    public func blockedUntil(_ keys: [Key], now: Date) async throws -> Date? {
        counted(try await store.throttleBlockedUntil(keys: keys.map { storedKey(for: $0) }, now: now), keys)
    }

    /// The device and until when `keys` are blocked, in one read (see ``blockedUntil(_:now:)``).
    public func device(id: String, blockedUntil keys: [Key], now: Date) async throws -> (device: Device?, blockedUntil: Date?) {
        let answer = try await store.device(id: id, blockedUntilFor: keys.map { storedKey(for: $0) }, now: now)
        return (answer.device, counted(answer.blockedUntil, keys))
    }

    /// The user and until when `keys` are blocked, in one read (see ``blockedUntil(_:now:)``).
    public func user(id: String, blockedUntil keys: [Key], now: Date) async throws -> (user: User?, blockedUntil: Date?) {
        let answer = try await store.user(id: id, blockedUntilFor: keys.map { storedKey(for: $0) }, now: now)
        return (answer.user, counted(answer.blockedUntil, keys))
    }

    private func counted(_ until: Date?, _ keys: [Key]) -> Date? {
        if until != nil { DomainMetrics.throttleBlocked(kind: keys.first?.kind ?? "none") }
        return until
    }

    public func recordFailure(_ keys: [Key], now: Date) async throws {
        try await store.recordThrottleFailures(keys.map { failure($0) }, now: now)
    }

    /// Counts the attempt against `keys` before the expensive check, atomically in the database;
    /// nil when it may be judged, else until when the keys are blocked (nothing counted). A
    /// success gives the count back (``recordSuccess(_:)``, ``release(_:)``).
    public func reserve(_ keys: [Key], now: Date) async throws -> Date? {
        counted(try await store.reserveThrottleAttempt(keys.map { failure($0) }, now: now), keys)
    }

    /// Gives back a reserved attempt that succeeded, without clearing the key's earlier failures.
    public func release(_ key: Key) async throws {
        try await store.releaseThrottleAttempt(key: storedKey(for: key))
    }

    private func failure(_ key: Key) -> ThrottleFailure {
        let policy = key.policy
        return ThrottleFailure(key: storedKey(for: key), forgetAfter: policy.forgetAfter) { policy.wait(afterFailures: $0) }
    }

    public func recordSuccess(_ key: Key) async throws {
        try await store.clearThrottle(key: storedKey(for: key))
    }
}
