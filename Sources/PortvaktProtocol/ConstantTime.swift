import Crypto
import Foundation

/// Compares two secrets without leaking, through timing, how long a prefix matched: both sides
/// are hashed first, and the digests are compared in constant time.
public func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let lhs = Data(SHA256.hash(data: Data(a.utf8)))
    let rhs = Data(SHA256.hash(data: Data(b.utf8)))
    return zip(lhs, rhs).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
}

/// `bytes` random bytes (default 32: 256 bits) as base64url, for codes, states and tokens.
public func randomToken(bytes: Int = 32) -> String {
    SymmetricKey(size: SymmetricKeySize(bitCount: bytes * 8)).withUnsafeBytes { Data($0) }.base64URLEncoded()
}
