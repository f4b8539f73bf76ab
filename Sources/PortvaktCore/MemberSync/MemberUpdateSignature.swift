import Crypto
import Foundation

/// How Portvakt signs what it sends to an organisation's member system, and how the receiver
/// checks it: `Portvakt-Signature: v2=<hex HMAC-SHA256(secret, "<timestamp>.<idempotency key>.<body>")>`
/// with `Portvakt-Timestamp: <Unix seconds>` and `Idempotency-Key: <message id>`. The timestamp
/// inside the MAC lets the receiver refuse an old message replayed; the key inside it binds the
/// body to the one message, so a captured body cannot be sent again under a new key (which the
/// receiver would apply as a new update). Message ids are lower-case UUIDs: no dot, so the signed
/// string splits one way. (`v1` signed `"<timestamp>.<body>"` and is no longer sent.)
public enum MemberUpdateSignature {
    public static let timestampHeader = "Portvakt-Timestamp"
    public static let signatureHeader = "Portvakt-Signature"
    public static let idempotencyKeyHeader = "Idempotency-Key"

    /// The `Portvakt-Signature` value for one message.
    /// - Parameters:
    ///   - body: the exact bytes posted.
    ///   - timestamp: the `Portvakt-Timestamp` sent with it.
    ///   - idempotencyKey: the `Idempotency-Key` sent with it (the outbox message's id).
    ///   - secret: the organisation's `PORTVAKT_MEMBER_SYSTEM_SECRETS` entry.
    public static func sign(body: Data, timestamp: Int, idempotencyKey: String, secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: signedBytes(body: body, timestamp: timestamp, idempotencyKey: idempotencyKey), using: SymmetricKey(data: Data(secret.utf8)))
        return "v2=" + Data(mac).hexEncoded()
    }

    /// `"<timestamp>.<idempotency key>.<body>"`, the one canonical string the MAC covers.
    static func signedBytes(body: Data, timestamp: Int, idempotencyKey: String) -> Data {
        Data("\(timestamp).\(idempotencyKey).".utf8) + body
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
