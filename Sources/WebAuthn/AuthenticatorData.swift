import Foundation

/// The authenticator data (WebAuthn L3 §6.1): RP ID hash, flags, signature counter, and on a
/// registration the new credential (AAGUID, ID, COSE public key).
public struct AuthenticatorData: Sendable {
    public let rpIDHash: [UInt8]
    public let flags: UInt8
    public let signCount: UInt32
    public let attestedCredential: AttestedCredential?

    public struct AttestedCredential: Sendable {
        public let aaguid: [UInt8]
        public let credentialID: [UInt8]
        /// The COSE key as encoded, stored to verify later assertions.
        public let publicKeyCOSE: [UInt8]
        public let publicKey: COSEKey
    }

    public var userPresent: Bool { flags & 0x01 != 0 }
    public var userVerified: Bool { flags & 0x04 != 0 }
    public var backupEligible: Bool { flags & 0x08 != 0 }
    public var backedUp: Bool { flags & 0x10 != 0 }
    var hasAttestedCredential: Bool { flags & 0x40 != 0 }
    var hasExtensions: Bool { flags & 0x80 != 0 }

    /// Credential IDs are at most 1023 bytes (L3 §5.1).
    static let maximumCredentialIDLength = 1023

    public init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw .malformed("authenticator data shorter than 37 bytes") }
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags & 0x40 != 0 {
            guard bytes.count >= offset + 18 else { throw .malformed("attested credential data truncated") }
            let aaguid = Array(bytes[offset..<offset + 16])
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard length > 0, length <= Self.maximumCredentialIDLength, bytes.count >= offset + length else { throw .malformed("credential ID length") }
            let credentialID = Array(bytes[offset..<offset + length])
            offset += length
            var decoder = CBORDecoder(bytes, from: offset)
            let cose: CBOR
            do { cose = try decoder.decodeItem() } catch { throw .malformed("credential public key: \(error)") }
            let encoded = Array(bytes[offset..<decoder.offset])
            offset = decoder.offset
            attestedCredential = AttestedCredential(aaguid: aaguid, credentialID: credentialID, publicKeyCOSE: encoded, publicKey: try COSEKey(cose))
        } else {
            attestedCredential = nil
        }
        if flags & 0x80 != 0 {
            var decoder = CBORDecoder(bytes, from: offset)
            do {
                guard case .map = try decoder.decodeItem() else { throw WebAuthnError.malformed("extensions are not a map") }
            } catch let error as WebAuthnError { throw error } catch { throw .malformed("extensions: \(error)") }
            offset = decoder.offset
        }
        guard offset == bytes.count else { throw .malformed("bytes after the authenticator data") }
    }
}
