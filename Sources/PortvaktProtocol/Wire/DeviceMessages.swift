/// `POST /v1/devices`: a device key to register for biometric unlock.
public struct DeviceRegistration: Codable, Sendable, Hashable {
    public let name: String
    public let platform: String
    public let biometricKind: String
    /// The P-256 public key as a JWK (`kty`, `crv`, `x`, `y`).
    public let publicKey: [String: String]

    public init(name: String, platform: String, biometricKind: String, publicKey: [String: String]) {
        self.name = name
        self.platform = platform
        self.biometricKind = biometricKind
        self.publicKey = publicKey
    }

    enum CodingKeys: String, CodingKey {
        case name, platform, biometricKind = "biometric_kind", publicKey = "public_key"
    }

    /// A name is at most this many characters (the server counts characters, the app keeps to
    /// as many Unicode scalars, which are never fewer).
    public static let nameLimit = 64

    /// Whether `scalar` may stand in a name: not a control or format character (direction
    /// overrides, zero-width marks) nor a line or paragraph separator. The name is shown in
    /// "Remove a phone" and in the mail that says a phone was added.
    public static func mayNameDevice(_ scalar: Unicode.Scalar) -> Bool {
        ![.control, .format, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
    }
}

/// What a device key stands for: the login that enrolled it, or raised it since. Its unlocks
/// open a session of that level (`acr`), and a password-level key's trust is renewed by any
/// login, an eID-level key's by BankID or Vipps only.
public enum DeviceAssurance: String, Codable, Sendable, Hashable, CaseIterable {
    /// Enrolled (or raised) right after a BankID or Vipps login.
    case electronicID = "eid"
    /// Enrolled after the account's password: never more than the password.
    case password
}

/// A registered device as `GET /v1/devices` lists it.
public struct DeviceInfo: Codable, Sendable, Hashable {
    public let id: String
    public let name: String
    public let platform: String
    public let biometricKind: String
    /// ISO 8601.
    public let createdAt: String
    public let lastUsedAt: String?
    /// Whether the calling session was unlocked by this device.
    public let current: Bool
    /// What the login that enrolled the key proved (``DeviceAssurance``); absent from a server
    /// before 1.1, whose keys were all enrolled after BankID or Vipps.
    public let assurance: DeviceAssurance?

    public init(
        id: String, name: String, platform: String, biometricKind: String, createdAt: String, lastUsedAt: String?, current: Bool,
        assurance: DeviceAssurance?
    ) {
        self.id = id
        self.name = name
        self.platform = platform
        self.biometricKind = biometricKind
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.current = current
        self.assurance = assurance
    }

    enum CodingKeys: String, CodingKey {
        case id, name, platform, biometricKind = "biometric_kind", createdAt = "created_at", lastUsedAt = "last_used_at", current, assurance
    }
}

/// `GET /v1/devices`.
public struct DeviceList: Codable, Sendable, Hashable {
    public let devices: [DeviceInfo]

    public init(devices: [DeviceInfo]) {
        self.devices = devices
    }
}

/// `POST /v1/devices/{id}/challenges`: `unlock`, or `step-up` with the action it opens.
public struct DeviceChallengeRequest: Codable, Sendable, Hashable {
    public let purpose: String
    public let action: String?

    public init(purpose: String, action: String? = nil) {
        self.purpose = purpose
        self.action = action
    }
}

/// A single-use challenge for the device to sign.
public struct DeviceChallengeIssued: Codable, Sendable, Hashable {
    public let challenge: String
    public let deviceId: String
    public let purpose: String
    public let action: String?
    /// What the assertion's `aud` must be.
    public let audience: String
    /// ISO 8601.
    public let expiresAt: String
    public let expiresIn: Int

    public init(challenge: String, deviceId: String, purpose: String, action: String?, audience: String, expiresAt: String, expiresIn: Int) {
        self.challenge = challenge
        self.deviceId = deviceId
        self.purpose = purpose
        self.action = action
        self.audience = audience
        self.expiresAt = expiresAt
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case challenge, deviceId = "device_id", purpose, action, audience, expiresAt = "expires_at", expiresIn = "expires_in"
    }
}
