import Foundation
import PortvaktProtocol

/// What the server's discovery document (`.well-known/openid-configuration`) tells the app.
public struct ServerDiscovery: Sendable, Hashable {
    /// The ways in it offers (`portvakt_login_methods`); nil from a server that does not say
    /// (every method, as before it said).
    public let loginMethods: Set<LoginMethod>?
    /// Its authorization answers name their issuer (RFC 9207's
    /// `authorization_response_iss_parameter_supported`): an answer without `iss` is refused.
    public let answersNameIssuer: Bool
}

extension PortvaktClient {
    public func discovery() async throws -> ServerDiscovery {
        struct Document: Decodable {
            let methods: [String]?
            let issParameterSupported: Bool?
            enum CodingKeys: String, CodingKey {
                case methods = "portvakt_login_methods"
                case issParameterSupported = "authorization_response_iss_parameter_supported"
            }
        }
        let document = try Self.decode(Document.self, from: try await perform("GET", ".well-known/openid-configuration", body: nil, accessToken: nil))
        let known: [String: LoginMethod] = ["bankid": .bankID, "vipps": .vipps, "bankid_order": .bankIDOrder, "password": .password]
        return ServerDiscovery(
            loginMethods: document.methods.map { Set($0.compactMap { known[$0] }) }, answersNameIssuer: document.issParameterSupported ?? false)
    }

    /// The ways in the server offers; nil from a server that does not say.
    public func loginMethods() async throws -> Set<LoginMethod>? {
        try await discovery().loginMethods
    }
}

extension PortvaktConfiguration {
    /// Whether an authorization answer's `iss` names this server (RFC 9207, the mix-up defence):
    /// Portvakt's issuer is the base URL. An answer without one passes only while the server has
    /// not said (discovery) that its answers carry it.
    public func isOwnIssuer(_ iss: String?, required: Bool) -> Bool {
        guard let iss else { return !required }
        func trimmed(_ url: String) -> Substring { url.hasSuffix("/") ? url.dropLast() : Substring(url) }
        return trimmed(iss) == trimmed(baseURL.absoluteString)
    }
}
