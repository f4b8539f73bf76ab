import Crypto
import Foundation

/// RFC 7638 JWK thumbprints: SHA-256 over the required members in lexicographic order, base64url.
public enum JWKThumbprint {
    /// The thumbprint of an EC P-256 key from its base64url `x` and `y`.
    public static func p256(x: String, y: String) -> String {
        Data(SHA256.hash(data: Data(canonicalP256(x: x, y: y).utf8))).base64URLEncoded()
    }

    /// The thumbprint of an RSA key from its base64url modulus `n` and exponent `e`.
    public static func rsa(n: String, e: String) -> String {
        Data(SHA256.hash(data: Data(#"{"e":"\#(e)","kty":"RSA","n":"\#(n)"}"#.utf8))).base64URLEncoded()
    }

    /// The required members of an EC P-256 JWK in RFC 7638 order, as JSON.
    public static func canonicalP256(x: String, y: String) -> String {
        #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
    }
}
