import Crypto
import Foundation
import PortvaktCore
import PortvaktProtocol
import Synchronization

/// Server nonces for DPoP proofs (RFC 9449 §8): a MAC of the current five-minute period under a
/// key every instance derives from the same configured secret, so a nonce one instance handed out
/// is accepted by all, without a shared table. The current and the previous period are accepted.
final class DPoPNonces: Sendable {
    static let period: TimeInterval = 300
    private let key: SymmetricKey
    /// The nonces of the latest period asked for and the one before: every request needs them.
    private let recent = Mutex<(period: Int64, current: String, previous: String)?>(nil)

    /// - Parameter key: the configured key for DPoP nonces (`DataProtectionKeys.key(for: .dpopNonce)`).
    init(key: SymmetricKey) {
        self.key = key
    }

    func current(at now: Date) -> String {
        nonces(at: now).current
    }

    func isValid(_ nonce: String, at now: Date) -> Bool {
        let (current, previous) = nonces(at: now)
        return constantTimeEqual(current, nonce) || constantTimeEqual(previous, nonce)
    }

    private func nonces(at now: Date) -> (current: String, previous: String) {
        let period = Self.period(of: now)
        if let recent = recent.withLock({ $0 }), recent.period == period { return (recent.current, recent.previous) }
        let fresh = (period: period, current: nonce(period: period), previous: nonce(period: period - 1))
        recent.withLock { $0 = fresh }
        return (fresh.current, fresh.previous)
    }

    private static func period(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / period).rounded(.down))
    }

    private func nonce(period: Int64) -> String {
        let counter = withUnsafeBytes(of: period.bigEndian) { Data($0) }
        let tag = Data(HMAC<SHA256>.authenticationCode(for: counter, using: key)).prefix(18)
        return (counter + tag).base64URLEncoded()
    }
}
