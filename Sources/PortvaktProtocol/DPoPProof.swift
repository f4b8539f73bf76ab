import Crypto
import Foundation

/// A DPoP proof (RFC 9449 §4): a JWS of type `dpop+jwt`, ES256, carrying the public `jwk` of the
/// key that signed it, bound to one HTTP request (`htm`, `htu`), a moment (`iat`), a unique `jti`,
/// the access token it accompanies (`ath`) and the server's `nonce`.
///
/// The client signs with a closure (a Secure Enclave key never leaves the chip); the server
/// parses with ``init(compact:)``, which also checks the signature against the header's key.
public struct DPoPProof: Sendable, Hashable {
    public static let type = "dpop+jwt"

    public let key: DevicePublicKey
    public let jti: String
    public let htm: String
    public let htu: String
    public let iat: Int
    public let ath: String?
    public let nonce: String?

    /// The RFC 7638 thumbprint of the proof's key: what tokens are bound to (`cnf.jkt`).
    public let thumbprint: String

    public init(key: DevicePublicKey, method: String, url: String, issuedAt: Date, accessToken: String? = nil, nonce: String? = nil) {
        self.key = key
        thumbprint = key.thumbprint
        jti = randomToken(bytes: 16)
        htm = method
        htu = Self.withoutQueryAndFragment(url)
        iat = Int(issuedAt.timeIntervalSince1970)
        ath = accessToken.map(Self.accessTokenHash)
        self.nonce = nonce
    }

    /// The compact JWS, signed by `sign`, which returns the raw 64-byte `r || s` ES256 signature.
    public func compact(sign: (Data) throws -> Data) throws -> String {
        try CompactJWS.compact(try signingInput(), sign: sign)
    }

    /// `base64url(header).base64url(claims)`: the bytes the signature covers.
    public func signingInput() throws -> String {
        "\(Self.encodedHeader(key)).\(try CompactJWS.encode(Claims(jti: jti, htm: htm, htu: htu, iat: iat, ath: ath, nonce: nonce)))"
    }

    /// The header, the same for every proof of a key: written out (the members in sorted order,
    /// only base64url values) rather than encoded, since a client signs one for every request.
    static func encodedHeader(_ key: DevicePublicKey) -> String {
        let json = #"{"alg":"ES256","jwk":{"crv":"P-256","kty":"EC","x":"\#(key.x)","y":"\#(key.y)"},"typ":"\#(type)"}"#
        return Data(json.utf8).base64URLEncoded()
    }

    public func compact(signedBy key: P256.Signing.PrivateKey) throws -> String {
        try compact { try key.signature(for: $0).rawRepresentation }
    }

    /// Why a proof is refused; the text is safe to send back to the client.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Parses a proof and checks its form and signature (RFC 9449 §4.3 steps 1–6). What depends
    /// on the request, the time and the server (`htm`, `htu`, `iat`, `ath`, `nonce`, replay) is
    /// left to the caller.
    public init(compact: String) throws(Problem) {
        try self.init(compact: compact, keyOfHeader: Self.key(ofHeader:))
    }

    /// As ``init(compact:)``, with the header's key from `keyOfHeader` (the server remembers the
    /// keys of headers it has read: a client's header is the same in every proof).
    public init(compact: String, keyOfHeader: (Substring) throws(Problem) -> DevicePublicKey) throws(Problem) {
        let parts = compact.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map(Substring.init)
        guard compact.utf8.count <= 4096, parts.count == 3, let claimsData = Data(base64URLEncoded: String(parts[1])),
              let signature = Data(base64URLEncoded: String(parts[2]))
        else { throw Problem(description: "The DPoP proof is not a compact JWS.") }
        let key = try keyOfHeader(parts[0])
        guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
              key.verifyingKey.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { throw Problem(description: "The DPoP proof's signature does not verify with its jwk.") }
        guard let claims = try? JSONDecoder().decode(Claims.self, from: claimsData) else {
            throw Problem(description: "The DPoP proof needs jti, htm, htu and iat.")
        }
        guard (1...256).contains(claims.jti.utf8.count) else { throw Problem(description: "The DPoP proof's jti must be 1 to 256 characters.") }
        self.key = key
        thumbprint = key.thumbprint
        jti = claims.jti
        htm = claims.htm
        htu = claims.htu
        iat = claims.iat
        ath = claims.ath
        nonce = claims.nonce
    }

    /// The key of a proof's header (its first segment), once `typ` and `alg` are right.
    public static func key(ofHeader segment: Substring) throws(Problem) -> DevicePublicKey {
        guard let headerData = Data(base64URLEncoded: String(segment)) else { throw Problem(description: "The DPoP proof is not a compact JWS.") }
        guard let header = try? JSONDecoder().decode(Header.self, from: headerData) else {
            throw Problem(description: "The DPoP proof's header needs typ, alg and jwk.")
        }
        guard header.typ == Self.type else { throw Problem(description: "The DPoP proof's typ must be dpop+jwt.") }
        guard header.alg == "ES256" else { throw Problem(description: "The DPoP proof must be signed ES256.") }
        do {
            return try DevicePublicKey(jwk: header.jwk)
        } catch {
            throw Problem(description: "The DPoP proof's jwk: \(error.description)")
        }
    }

    /// `ath`: base64url SHA-256 of the access token's ASCII (RFC 9449 §4.2).
    public static func accessTokenHash(_ token: String) -> String {
        Data(SHA256.hash(data: Data(token.utf8))).base64URLEncoded()
    }

    /// `htu` as compared (RFC 9449 §4.3 step 9, RFC 3986 §6.2.2–6.2.3): without query and
    /// fragment, scheme and host in lower case, no default port.
    public static func withoutQueryAndFragment(_ url: String) -> String {
        guard var components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else { return url }
        components.query = nil
        components.fragment = nil
        components.scheme = scheme
        components.host = components.host?.lowercased()
        if (scheme == "https" && components.port == 443) || (scheme == "http" && components.port == 80) { components.port = nil }
        if components.path.isEmpty { components.path = "/" }
        return components.string ?? url
    }

    private struct Header: Codable {
        let typ: String
        let alg: String
        let jwk: [String: String]
    }

    private struct Claims: Codable {
        let jti: String
        let htm: String
        let htu: String
        let iat: Int
        let ath: String?
        let nonce: String?
    }
}
