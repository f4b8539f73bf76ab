/// Something that can go wrong at a provider, switched on to prove that the broker refuses or
/// explains it. docs/sandbox.md lists them with what each one does.
public enum SandboxFault: String, Sendable, Hashable, Codable, CaseIterable {
    // Availability: every endpoint of the provider.
    /// Answers 503 Service Unavailable.
    case outage
    /// Closes the connection without answering, as a refused or reset connection looks to a client.
    case connectionDrop = "connection_drop"
    /// Answers after the provider's `slowSeconds` delay.
    case slow

    // The user.
    /// The user cancels: the authorization ends with `access_denied`, a BankID order with `userCancel`.
    case userCancels = "user_cancels"
    /// The person's earlier sign-in at the provider is reused (single sign-on): `auth_time` is
    /// ten minutes ago, unless the request asks for `prompt=login` or a `max_age`.
    case singleSignOn = "single_sign_on"

    // The token endpoint.
    /// Every code is refused as expired (`invalid_grant`).
    case expiredCode = "expired_code"
    /// Every code is refused as already used (`invalid_grant`).
    case reusedCode = "reused_code"

    // The personnummer.
    /// The provider gives no personnummer, as when the client is not approved for the scope.
    case personnummerMissing = "nin_missing"
    /// The provider gives a personnummer whose check digit is wrong.
    case personnummerInvalid = "nin_invalid"

    // ID tokens.
    case badSignature = "bad_signature"
    case wrongNonce = "wrong_nonce"
    case wrongAudience = "wrong_audience"
    case wrongIssuer = "wrong_issuer"
    case expiredIDToken = "expired_id_token"
    case unknownKeyID = "unknown_kid"
    /// `alg: none` and no signature.
    case algorithmNone = "alg_none"
    /// HS256 with the provider's public key as the HMAC secret (the RS/HS confusion attack).
    case hmacWithPublicKey = "hs256_public_key"
    /// Signed by another key that rides along in a `jwk` header.
    case embeddedKey = "embedded_jwk"
    /// A correctly signed ID token that claims BankID's high level (`acr` `urn:bankid:bid;LOA=4`,
    /// `amr` `BID`) whatever the provider: from Vipps, a claim Portvakt must not believe.
    case bankIDHighACR = "bankid_high_acr"

    // BankID orders.
    /// The order fails with `startFailed` when the BankID app opens it.
    case startFailed = "start_failed"
    /// The order fails with `certificateErr` when the user approves.
    case certificateError = "certificate_error"
    /// Collect reports a hint code no client knows yet.
    case unknownHint = "unknown_hint"
}

/// The faults switched on for one provider.
public struct FaultSettings: Sendable, Hashable, Codable {
    public var faults: Set<SandboxFault>
    /// How long `slow` waits before answering.
    public var slowSeconds: Double

    public init(faults: Set<SandboxFault> = [], slowSeconds: Double = 10) {
        self.faults = faults
        self.slowSeconds = slowSeconds
    }

    enum CodingKeys: String, CodingKey {
        case faults
        case slowSeconds = "slow_seconds"
    }

    /// The personnummer the provider releases: `number`, or with a wrong last digit under `nin_invalid`.
    func released(_ number: String) -> String {
        guard faults.contains(.personnummerInvalid), let last = number.last?.wholeNumberValue else { return number }
        return String(number.dropLast()) + String((last + 1) % 10)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            faults: try container.decodeIfPresent(Set<SandboxFault>.self, forKey: .faults) ?? [],
            slowSeconds: try container.decodeIfPresent(Double.self, forKey: .slowSeconds) ?? 10
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(faults.map(\.rawValue).sorted(), forKey: .faults)
        try container.encode(slowSeconds, forKey: .slowSeconds)
    }

    public func contains(_ fault: SandboxFault) -> Bool { faults.contains(fault) }
}
