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

extension Data {
    /// Lower-case hex digits.
    public func hexEncoded() -> String {
        map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
