import Crypto
import Foundation
import PortvaktProtocol

/// Portvakt as a WebAuthn relying party: its RP ID (a domain, never an IP address) and the one
/// origin its pages are served from. Verifies registrations (§7.1) and assertions (§7.2) of
/// WebAuthn Level 3; the challenge is looked up and used up by the caller before this runs.
public struct RelyingParty: Sendable {
    public let id: String
    public let origin: String

    public init(id: String, origin: String) {
        self.id = id
        self.origin = origin
    }

    /// The relying party of a public URL (`https://login.example.no`, `http://localhost:8080`):
    /// its host is the RP ID, its scheme, host and port the origin (as browsers write it: no
    /// default port). Nil for an IP address, a host that is not plain ASCII (give its punycode
    /// form), or plain http anywhere but localhost (WebAuthn needs a secure context).
    public init?(publicURL: String) {
        guard let components = URLComponents(string: publicURL), let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(),
              !host.isEmpty, !host.contains(":"), host.contains(where: \.isLetter), host.allSatisfy({ $0.isASCII }),
              scheme == "https" || (scheme == "http" && host == "localhost")
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        self.init(id: host, origin: "\(scheme)://\(host)\(port)")
    }

    /// A new credential that passed every check.
    public struct Registration: Sendable {
        public let credentialID: [UInt8]
        public let publicKeyCOSE: [UInt8]
        public let algorithm: COSEKey.Algorithm
        public let signCount: UInt32
        public let aaguid: [UInt8]
        public let backupEligible: Bool
        public let backedUp: Bool
    }

    /// A stored credential, as an assertion is checked against it.
    public struct StoredCredential: Sendable {
        public let publicKeyCOSE: [UInt8]
        public let signCount: UInt32
        public let backupEligible: Bool

        public init(publicKeyCOSE: [UInt8], signCount: UInt32, backupEligible: Bool) {
            self.publicKeyCOSE = publicKeyCOSE
            self.signCount = signCount
            self.backupEligible = backupEligible
        }
    }

    /// What an accepted assertion changes about its credential.
    public struct Assertion: Sendable {
        public let signCount: UInt32
        public let backedUp: Bool
    }

    /// Checks a registration against `challenge` (§7.1): client data, RP ID hash, user presence
    /// and verification, backup flags, an offered algorithm, and the attestation statement
    /// (`none`, or `packed` self-attestation).
    public func verifyRegistration(clientDataJSON: [UInt8], attestationObject: [UInt8], challenge: [UInt8]) throws(WebAuthnError) -> Registration {
        try check(clientDataJSON, type: "webauthn.create", challenge: challenge)
        let attestation = try AttestationObject(attestationObject)
        let data = attestation.authenticatorData
        try checkFlags(data)
        guard let credential = data.attestedCredential else { throw .malformed("no attested credential data") }
        try attestation.verifyStatement(clientDataHash: Array(SHA256.hash(data: clientDataJSON)))
        return Registration(
            credentialID: credential.credentialID, publicKeyCOSE: credential.publicKeyCOSE, algorithm: credential.publicKey.algorithm,
            signCount: data.signCount, aaguid: credential.aaguid, backupEligible: data.backupEligible, backedUp: data.backedUp
        )
    }

    /// Checks an assertion of `credential` against `challenge` (§7.2). A counter that does not
    /// move forward (when either side counts) is refused: the credential may have been cloned.
    public func verifyAssertion(
        clientDataJSON: [UInt8], authenticatorData bytes: [UInt8], signature: [UInt8], challenge: [UInt8], credential: StoredCredential
    ) throws(WebAuthnError) -> Assertion {
        try check(clientDataJSON, type: "webauthn.get", challenge: challenge)
        let data = try AuthenticatorData(bytes)
        guard data.attestedCredential == nil else { throw .malformed("attested credential data in an assertion") }
        try checkFlags(data)
        guard data.backupEligible == credential.backupEligible else { throw .backupFlags }
        let cose: CBOR
        do { cose = try CBORDecoder.decodeOnly(credential.publicKeyCOSE) } catch { throw .unsupportedKey("stored key") }
        let key = try COSEKey(cose)
        guard key.isValidSignature(signature, for: bytes + SHA256.hash(data: clientDataJSON)) else { throw .badSignature }
        if data.signCount != 0 || credential.signCount != 0, data.signCount <= credential.signCount { throw .counterWentBackwards }
        return Assertion(signCount: data.signCount, backedUp: data.backedUp)
    }

    private func check(_ clientDataJSON: [UInt8], type: String, challenge: [UInt8]) throws(WebAuthnError) {
        let client = try ClientData.parse(clientDataJSON)
        guard client.type == type else { throw .wrongType }
        guard let presented = Self.base64URLDecode(client.challenge), Self.constantTimeEqual(presented, challenge) else { throw .challengeMismatch }
        // Portvakt is never embedded in another site's frame.
        guard client.origin == origin, client.crossOrigin != true, client.topOrigin == nil else { throw .originMismatch }
    }

    private func checkFlags(_ data: AuthenticatorData) throws(WebAuthnError) {
        guard Self.constantTimeEqual(data.rpIDHash, Array(SHA256.hash(data: Data(id.utf8)))) else { throw .relyingPartyMismatch }
        guard data.userPresent else { throw .userNotPresent }
        guard data.userVerified else { throw .userNotVerified }
        guard data.backupEligible || !data.backedUp else { throw .backupFlags }
    }

    /// The challenge a client data JSON names (base64url), for finding the stored one; nil when
    /// the data is not client data.
    public static func presentedChallenge(in clientDataJSON: [UInt8]) -> [UInt8]? {
        (try? ClientData.parse(clientDataJSON)).flatMap { base64URLDecode($0.challenge) }
    }

    /// Base64url from a browser, strictly: at most 8192 characters of the URL alphabet, no padding.
    public static func base64URLDecode(_ text: String) -> [UInt8]? {
        guard text.utf8.count <= 8192, text.allSatisfy({ $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "-" || $0 == "_" }) else { return nil }
        return Data(base64URLEncoded: text).map(Array.init)
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
