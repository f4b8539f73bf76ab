import Foundation

/// JWS compact serialisation (RFC 7515 §7.1) of what the client signs: device assertions and
/// DPoP proofs. Keys sorted, slashes unescaped, so the same claims give the same bytes.
public enum CompactJWS {
    /// `base64url(header).base64url(payload)`: the bytes the signature covers (RFC 7515 §5.1).
    static func signingInput(header: some Encodable, payload: some Encodable) throws -> String {
        "\(try encode(header)).\(try encode(payload))"
    }

    /// One part: base64url of the JSON.
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value).base64URLEncoded()
    }

    /// The compact JWS of `input` signed by `sign` (raw 64-byte `r || s` for ES256).
    static func compact(_ input: String, sign: (Data) throws -> Data) throws -> String {
        "\(input).\(try sign(Data(input.utf8)).base64URLEncoded())"
    }

    /// The JSON object of one part of a compact JWS (0 the header, 1 the payload), read before
    /// anything is verified: only to choose a key or the party the token claims to come from.
    public static func unverifiedObject(at part: Int, of token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, (0...1).contains(part), let data = Data(base64URLEncoded: String(parts[part])) else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }
}
