import Crypto
import Foundation

/// How Portvakt signs what it sends to an organisation's member system, and how the receiver
/// checks it: `Portvakt-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>` with
/// `Portvakt-Timestamp: <Unix seconds>`. The timestamp inside the MAC lets the receiver refuse
/// an old message replayed; the `Idempotency-Key` header lets it apply a retried one once.
public enum MemberUpdateSignature {
    public static let timestampHeader = "Portvakt-Timestamp"
    public static let signatureHeader = "Portvakt-Signature"

    public static func sign(body: Data, timestamp: Int, secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(timestamp).".utf8) + body, using: SymmetricKey(data: Data(secret.utf8)))
        return "v1=" + Data(mac).hexEncoded()
    }
}

extension Sequence<UInt8> {
    /// Lower-case hex digits.
    public func hexEncoded() -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
