import Foundation
import WebAuthn

/// What a ceremony's page script passes to `navigator.credentials` (WebAuthn L3 §5.4 and §5.5,
/// in their JSON forms, binary values base64url): the script turns them into the API's types.
public struct PasskeyCreationOptions: Encodable, Sendable {
    public struct Party: Encodable, Sendable { let id: String; let name: String }
    public struct UserEntity: Encodable, Sendable { let id: String; let name: String; let displayName: String }
    public struct Parameter: Encodable, Sendable { var type = "public-key"; let alg: Int }
    public struct Descriptor: Encodable, Sendable { var type = "public-key"; let id: String }
    public struct Selection: Encodable, Sendable {
        var residentKey = "required"
        var requireResidentKey = true
        var userVerification = "required"
    }

    let rp: Party
    let user: UserEntity
    let challenge: String
    let pubKeyCredParams: [Parameter]
    let excludeCredentials: [Descriptor]
    var authenticatorSelection = Selection()
    var attestation = "none"
    var timeout = 300_000
}

public struct PasskeyRequestOptions: Encodable, Sendable {
    let challenge: String
    let rpId: String
    var userVerification = "required"
    var timeout = 300_000
}

/// A registration as the page posts it (base64url fields).
public struct PasskeyRegistrationResponse: Sendable {
    public let clientDataJSON: String
    public let attestationObject: String
    public let name: String

    public init(clientDataJSON: String, attestationObject: String, name: String) {
        self.clientDataJSON = clientDataJSON
        self.attestationObject = attestationObject
        self.name = name
    }
}

/// An assertion as the page posts it (base64url fields).
public struct PasskeyAssertionResponse: Sendable {
    public let credentialID: String
    public let clientDataJSON: String
    public let authenticatorData: String
    public let signature: String
    public let userHandle: String

    public init(credentialID: String, clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
        self.userHandle = userHandle
    }
}

/// Why a passkey ceremony was refused, in the words the page shows.
public enum PasskeyRefusal: Error, Sendable, Equatable {
    /// The challenge is unknown, used or expired: start again.
    case expired
    /// The browser's answer did not verify (origin, signature, flags, format).
    case notVerified(WebAuthnError)
    /// No account has this passkey (removed, or another site's).
    case unknownCredential
    /// The authenticator's counter went backwards: the passkey may have been copied.
    case cloned
    /// The credential is registered already.
    case alreadyRegistered
    /// The registration needs a fresh BankID or Vipps login.
    case stepUpRequired
    /// The passkey's name is empty or too long.
    case invalidName
    /// The account has as many passkeys as it may.
    case tooMany

    public var reason: String {
        switch self {
        case .expired: "challenge unknown, used or expired"
        case .notVerified(let error): error.reason
        case .unknownCredential: "unknown credential"
        case .cloned: "signature counter went backwards"
        case .alreadyRegistered: "credential already registered"
        case .stepUpRequired: "no fresh BankID or Vipps login"
        case .invalidName: "invalid name"
        case .tooMany: "too many passkeys"
        }
    }
}
