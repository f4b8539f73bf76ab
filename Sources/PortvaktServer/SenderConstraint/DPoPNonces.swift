import Crypto
import Foundation
import PortvaktCore
import PortvaktProtocol

/// Server nonces for DPoP proofs (RFC 9449 §8): a MAC of the current five-minute period under a
/// key every instance derives from the same configured secret, so a nonce one instance handed out
/// is accepted by all, without a shared table. The current and the previous period are accepted.
struct DPoPNonces: Sendable {
    static let period: TimeInterval = 300
    private let key: SymmetricKey

    init(secret: SymmetricKey) {
        key = HKDF<SHA256>.deriveKey(inputKeyMaterial: secret, info: Data("portvakt dpop nonce v1".utf8), outputByteCount: 32)
    }

    func current(at now: Date) -> String {
        nonce(period: Self.period(of: now))
    }

    func isValid(_ nonce: String, at now: Date) -> Bool {
        let current = Self.period(of: now)
        return [current, current - 1].contains { constantTimeEqual(self.nonce(period: $0), nonce) }
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
