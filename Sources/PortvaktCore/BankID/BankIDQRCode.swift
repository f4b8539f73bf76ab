import Crypto
import Foundation

/// The text of an animated BankID QR code (relying-party API v6): a new frame every second, so a
/// photographed code is useless a moment later.
public enum BankIDQRCode {
    /// `bankid.{qrStartToken}.{t}.{hex(HMAC-SHA256(qrStartSecret, String(t)))}`
    /// - Parameter seconds: whole seconds since the order started.
    public static func frame(qrStartToken: String, qrStartSecret: String, seconds: Int) -> String {
        "bankid.\(qrStartToken).\(seconds).\(authCode(qrStartSecret: qrStartSecret, seconds: seconds))"
    }

    /// The hex HMAC of one frame.
    public static func authCode(qrStartSecret: String, seconds: Int) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(String(seconds).utf8), using: SymmetricKey(data: Data(qrStartSecret.utf8)))
        return Data(mac).hexEncoded()
    }
}
