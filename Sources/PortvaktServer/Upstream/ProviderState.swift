import Foundation
import PortvaktCore

/// What the last look at a provider found: at start (``UpstreamProvider/check(now:)``) and at
/// every discovery fetch after it. `/health/ready` shows it, so a dashboard sees "BankID
/// unreachable" before the members do.
struct ProviderState: Sendable, Codable, Equatable {
    enum Condition: String, Sendable, Codable {
        /// Discovery and keys answered, and the document fits this client.
        case reachable
        /// No answer, or not a usable one: it may come back by itself.
        case unreachable
        /// It answers, but not what this client's settings need: settings must change.
        case misconfigured
    }

    let state: Condition
    /// Why, in one line without secrets; nil when reachable.
    let detail: String?
    /// Seconds since 1970.
    let checkedAt: Int

    enum CodingKeys: String, CodingKey {
        case state, detail
        case checkedAt = "checked_at"
    }
}

extension UpstreamSettings {
    /// What in `document` does not fit these settings: nil when it fits. OpenID Connect
    /// Discovery §4.3: the issuer must be the address the document came from, minus its path.
    func misfit(_ document: OpenIDProviderMetadata) -> String? {
        let issuer = document.issuer.hasSuffix("/") ? String(document.issuer.dropLast()) : document.issuer
        guard issuer + "/.well-known/openid-configuration" == discoveryURL else {
            return "the discovery document's issuer \(document.issuer) is not the address it came from (\(discoveryURL))"
        }
        let method = switch authentication {
        case .secret: "client_secret_basic"
        case .privateKey: "private_key_jwt"
        }
        if let methods = document.tokenEndpointAuthMethodsSupported, !methods.contains(method) {
            return "the provider does not accept \(method) at its token endpoint (it lists \(methods.joined(separator: ", ")))"
        }
        if let offered = document.scopesSupported {
            let missing = scopes.filter { !offered.contains($0) }
            if !missing.isEmpty { return "the provider does not list the scopes \(missing.joined(separator: ", ")) (register them for this client)" }
        }
        return nil
    }
}
