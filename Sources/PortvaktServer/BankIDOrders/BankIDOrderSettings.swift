import Foundation
import PortvaktCore

/// How the broker reaches a BankID order API: its base URL and the relying party's credentials.
public struct BankIDOrderSettings: Sendable {
    /// Up to and including the version, e.g. `https://…/rp/v6.0`; no trailing slash.
    public var baseURL: String
    public var clientID: String
    public var clientSecret: String
    /// An order start that takes longer is answered with a timeout error, so the app can offer
    /// Vipps within the seed's two seconds.
    public var startTimeout: Duration

    public init(baseURL: String, clientID: String, clientSecret: String, startTimeout: Duration) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.startTimeout = startTimeout
    }

    static let names = ["PORTVAKT_BANKID_ORDER_API_URL", "PORTVAKT_BANKID_ORDER_CLIENT_ID", "PORTVAKT_BANKID_ORDER_CLIENT_SECRET"]

    /// The order API from PORTVAKT_BANKID_ORDER_*, nil when none of them is set.
    static func load(from settings: SettingsSource, startTimeout: Duration) throws(ConfigurationError) -> BankIDOrderSettings? {
        let values = names.map { settings[$0] }
        guard values.contains(where: { $0 != nil }) else { return nil }
        guard let base = values[0], let url = URL(string: base), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ConfigurationError("PORTVAKT_BANKID_ORDER_API_URL must be the order API's https URL, e.g. https://…/rp/v6.0")
        }
        guard let clientID = values[1], !clientID.isEmpty, let secret = values[2], !secret.isEmpty else {
            throw ConfigurationError("PORTVAKT_BANKID_ORDER_CLIENT_ID and PORTVAKT_BANKID_ORDER_CLIENT_SECRET are required with PORTVAKT_BANKID_ORDER_API_URL")
        }
        return BankIDOrderSettings(baseURL: base, clientID: clientID, clientSecret: secret, startTimeout: startTimeout)
    }
}
