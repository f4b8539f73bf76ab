import Foundation
import PortvaktProtocol

/// The first segment of a compact JWS, read before any key is chosen.
public struct JOSEHeader: Sendable {
    public let alg: String?
    public let kid: String?
    /// Header members that point at keys or demand extensions; never trusted (RFC 8725 §3.10).
    public let keyReferences: Set<String>

    public init?(compactJWS token: String) {
        guard let object = CompactJWS.unverifiedObject(at: 0, of: token) else { return nil }
        alg = object["alg"] as? String
        kid = object["kid"] as? String
        // A kid is looked up in the database and logged: no NUL, no line breaks.
        if let kid, TextInput.hasControlCharacters(kid) || kid.utf8.count > 256 { return nil }
        keyReferences = Set(object.keys).intersection(["jwk", "jku", "x5u", "x5c", "crit"])
    }
}
