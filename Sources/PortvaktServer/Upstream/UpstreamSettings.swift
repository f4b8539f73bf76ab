import Foundation
import JWTKit
import PortvaktCore
import PortvaktModels
import PortvaktStorage

/// How the broker reaches one identity provider as a confidential client.
public struct UpstreamSettings: Sendable {
    public enum ClientAuthentication: Sendable {
        /// `client_secret_basic` (RFC 6749 §2.3.1).
        case secret(String)
        /// `private_key_jwt` (RFC 7523 §2.2), signed ES256 with this key.
        case privateKey(SigningKey)
    }

    public var provider: IdentityProvider
    public var discoveryURL: String
    public var clientID: String
    public var authentication: ClientAuthentication
    public var scopes: [String]
    /// `acr_values` asked at sign-in (BankID: `PORTVAKT_BANKID_ACR_VALUES`), and at a step-up
    /// (`prompt=login`) when an organisation needs the high level.
    public var acrValues: String?
    public var stepUpACRValues: String?

    public init(provider: IdentityProvider, discoveryURL: String, clientID: String, authentication: ClientAuthentication) {
        self.provider = provider
        self.discoveryURL = discoveryURL
        self.clientID = clientID
        self.authentication = authentication
        scopes = Self.scopes(for: provider)
    }

    /// Vipps puts `nin` in userinfo for the `nin` scope; BankID puts it in the ID token for
    /// `nnin_altsub`.
    static func scopes(for provider: IdentityProvider) -> [String] {
        provider == .vipps ? ["openid", "name", "phoneNumber", "email", "nin"] : ["openid", "profile", "nnin_altsub"]
    }

    /// The providers configured by PORTVAKT_VIPPS_* and PORTVAKT_BANKID_*; a provider needs its
    /// discovery URL, client id and a secret (or, for BankID, a private key file).
    static func load(from settings: SettingsSource) throws(ConfigurationError) -> [IdentityProvider: UpstreamSettings] {
        var result: [IdentityProvider: UpstreamSettings] = [:]
        for provider in [IdentityProvider.vipps, .bankid] {
            let prefix = "PORTVAKT_\(provider.rawValue.uppercased())_"
            let discovery = settings[prefix + "DISCOVERY_URL"]
            let clientID = settings[prefix + "CLIENT_ID"]
            let secret = settings[prefix + "CLIENT_SECRET"]
            // The PEM text, from PORTVAKT_BANKID_PRIVATE_KEY_FILE (a path) or the systemd
            // credential PORTVAKT_BANKID_PRIVATE_KEY: a secret like the others.
            let keyPEM = provider == .bankid ? settings[prefix + "PRIVATE_KEY"] : nil
            guard discovery != nil || clientID != nil || secret != nil || keyPEM != nil else { continue }
            guard let discovery, let url = URL(string: discovery), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ConfigurationError("\(prefix)DISCOVERY_URL must be the provider's https discovery URL")
            }
            guard let clientID, !clientID.isEmpty else { throw ConfigurationError("\(prefix)CLIENT_ID is required with \(prefix)DISCOVERY_URL") }
            let authentication: ClientAuthentication
            if let keyPEM {
                guard let key = try? ES256PrivateKey(pem: keyPEM) else {
                    throw ConfigurationError("\(prefix)PRIVATE_KEY (its _FILE, or its credential) must be a PEM P-256 private key")
                }
                authentication = .privateKey(SigningKey(privateKey: key, createdAt: Date(), retiredAt: nil))
            } else if let secret, !secret.isEmpty {
                authentication = .secret(secret)
            } else {
                throw ConfigurationError("\(prefix)CLIENT_SECRET\(provider == .bankid ? " or \(prefix)PRIVATE_KEY_FILE" : "") is required")
            }
            result[provider] = UpstreamSettings(provider: provider, discoveryURL: discovery, clientID: clientID, authentication: authentication)
        }
        return result
    }
}
