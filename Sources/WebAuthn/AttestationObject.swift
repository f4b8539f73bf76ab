import Foundation

/// The attestation object of a registration (§6.5): format, statement and authenticator data.
/// Portvakt asks for no attestation, so it accepts `none` and `packed` self-attestation (signed
/// by the credential's own key); a statement with a certificate chain is refused.
struct AttestationObject {
    let format: String
    let statement: CBOR
    let authenticatorData: AuthenticatorData
    let authenticatorDataBytes: [UInt8]

    /// Attestation objects are a few hundred bytes (an RSA key some more).
    static let maximumLength = 8192

    init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count <= Self.maximumLength else { throw .malformed("attestation object too long") }
        let object: CBOR
        do { object = try CBORDecoder.decodeOnly(bytes) } catch { throw .malformed("attestation object: \(error)") }
        guard let format = object[text: "fmt"]?.textString, let statement = object[text: "attStmt"], case .map = statement,
              let data = object[text: "authData"]?.byteString
        else { throw .malformed("attestation object fields") }
        self.format = format
        self.statement = statement
        authenticatorDataBytes = data
        authenticatorData = try AuthenticatorData(data)
    }

    func verifyStatement(clientDataHash: [UInt8]) throws(WebAuthnError) {
        switch format {
        case "none":
            guard statement == .map([]) else { throw .unsupportedAttestation("none with a statement") }
        case "packed":
            guard let credential = authenticatorData.attestedCredential, let algorithm = statement[text: "alg"]?.int,
                  let signature = statement[text: "sig"]?.byteString
            else { throw .malformed("packed statement") }
            guard statement[text: "x5c"] == nil else { throw .unsupportedAttestation("packed with a certificate") }
            guard algorithm == credential.publicKey.algorithm.rawValue else { throw .unsupportedAttestation("packed algorithm differs from the key's") }
            guard credential.publicKey.isValidSignature(signature, for: authenticatorDataBytes + clientDataHash) else { throw .badSignature }
        default:
            throw .unsupportedAttestation("format")
        }
    }
}
