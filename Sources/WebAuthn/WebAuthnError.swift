/// Why a registration or an assertion was refused; the reason is for the log and the audit
/// trail, never shown to the person as it stands.
public enum WebAuthnError: Error, Equatable, Sendable {
    /// The data was not what a browser sends: bad JSON, CBOR or lengths.
    case malformed(String)
    case wrongType
    case challengeMismatch
    case originMismatch
    case relyingPartyMismatch
    case userNotPresent
    case userNotVerified
    /// The backup flags say what cannot be (backed up but not eligible), or eligibility changed.
    case backupFlags
    case unsupportedKey(String)
    case unsupportedAttestation(String)
    case badSignature
    /// The authenticator's counter did not move forward: the credential may have been cloned.
    case counterWentBackwards

    /// A short reason without anything from the request.
    public var reason: String {
        switch self {
        case .malformed(let what): "malformed: \(what)"
        case .wrongType: "wrong client data type"
        case .challengeMismatch: "challenge mismatch"
        case .originMismatch: "origin mismatch"
        case .relyingPartyMismatch: "RP ID mismatch"
        case .userNotPresent: "user not present"
        case .userNotVerified: "user not verified"
        case .backupFlags: "backup flags"
        case .unsupportedKey(let what): "unsupported key: \(what)"
        case .unsupportedAttestation(let what): "unsupported attestation: \(what)"
        case .badSignature: "bad signature"
        case .counterWentBackwards: "signature counter went backwards"
        }
    }
}
