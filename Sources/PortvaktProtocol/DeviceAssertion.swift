import Crypto
import Foundation

/// What a device signs with its biometric-protected key to unlock or to step up: an ES256 JWS
/// (RFC 7515, compact) whose header names the device (`kid`) and whose payload binds the
/// server's single-use challenge, the device, the purpose and the time.
///
/// The device signs; the server verifies. Signing takes a closure so that a Secure Enclave key,
/// which never leaves the chip, signs the same bytes as a software key.
public struct DeviceAssertion: Sendable, Hashable, Codable {
    /// The device id the server gave at registration (also the JWS `kid`).
    public let iss: String
    /// The Portvakt issuer URL.
    public let aud: String
    public let challenge: String
    public let purpose: DevicePurpose
    /// The action a step-up is for, such as `contacts.read`; nil for unlock.
    public let action: String?
    /// Seconds since 1970 when the device signed.
    public let iat: Int

    public init(deviceID: String, audience: String, challenge: String, purpose: DevicePurpose, action: String? = nil, issuedAt: Date) {
        iss = deviceID
        aud = audience
        self.challenge = challenge
        self.purpose = purpose
        self.action = action
        iat = Int(issuedAt.timeIntervalSince1970)
    }

    /// The compact JWS, signed by `sign`, which returns the raw 64-byte `r || s` ES256 signature
    /// of its input (RFC 7518 §3.4).
    public func compact(sign: (Data) throws -> Data) throws -> String {
        try CompactJWS.compact(try signingInput(), sign: sign)
    }

    /// `base64url(header).base64url(payload)`: the bytes the signature covers (RFC 7515 §5.1).
    public func signingInput() throws -> String {
        try CompactJWS.signingInput(header: ["alg": "ES256", "typ": "JWT", "kid": iss], payload: self)
    }

    /// Signed with a software key (the Linux client and tests; Apple devices use the Secure Enclave).
    public func compact(signedBy key: P256.Signing.PrivateKey) throws -> String {
        try compact { try key.signature(for: $0).rawRepresentation }
    }
}

/// Why a device signs a challenge.
public enum DevicePurpose: String, Sendable, Hashable, Codable, CaseIterable {
    /// Biometric unlock: a new session from the device key.
    case unlock
    /// Step-up before a sensitive action.
    case stepUp = "step-up"
}

/// The actions that need a fresh biometric step-up, and the `amr` values (RFC 8176) a device's
/// biometric kind adds.
public enum StepUpAction: String, Sendable, Hashable, Codable, CaseIterable {
    case contactsRead = "contacts.read"
    case expensesSubmit = "expenses.submit"
    /// An administrator seeing a member's full personnummer (a sync conflict).
    case personnummerRead = "personnummer.read"
    /// Enrolling a device key after the login's few minutes have passed: only the password,
    /// entered again, confirms it (`POST /v1/step-up/password`); the key is then password-level.
    case deviceEnrol = "device.enrol"
}

/// Face ID / face unlock or a fingerprint sensor: what releases the device key.
public enum BiometricKind: String, Sendable, Hashable, Codable, CaseIterable {
    case face, fingerprint

    /// The RFC 8176 method: `face` or `fpt`.
    public var amr: String { self == .face ? "face" : "fpt" }
}
