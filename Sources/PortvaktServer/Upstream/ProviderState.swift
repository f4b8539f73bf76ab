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
    /// Why, in one line without secrets; nil when reachable. Logged, never in `/health/ready`:
    /// it names the provider's addresses and what it lists.
    let detail: String?
    /// Seconds since 1970.
    let checkedAt: Int

    /// What `/health/ready` shows anyone: the state and when it was seen.
    var published: Published { Published(state: state, checkedAt: checkedAt) }

    struct Published: Sendable, Codable, Equatable {
        let state: Condition
        let checkedAt: Int
        enum CodingKeys: String, CodingKey {
            case state
            case checkedAt = "checked_at"
        }
    }
}

extension UpstreamSettings {
    /// What in `document` does not fit these settings: nil when it fits. OpenID Connect
    /// Discovery §4.3: the issuer must be the address the document came from, minus its path.
    func misfit(_ document: OpenIDProviderMetadata) -> String? {
        let issuer = document.issuer.hasSuffix("/") ? String(document.issuer.dropLast()) : document.issuer
        guard Self.normalised(issuer + "/.well-known/openid-configuration") == Self.normalised(discoveryURL) else {
            return "the discovery document's issuer \(document.issuer) is not the address it came from (\(discoveryURL))"
        }
        let method = switch authentication {
        case .secret: "client_secret_basic"
        case .privateKey: "private_key_jwt"
        }
        if let methods = document.tokenEndpointAuthMethodsSupported, !methods.contains(method) {
            return "the provider does not accept \(method) at its token endpoint (it lists \(methods.joined(separator: ", ")))"
        }
        return nil
    }

    /// The scopes Portvakt asks for that the document does not list: a warning only, since
    /// `scopes_supported` may list fewer than the provider grants (OpenID Connect Discovery §3).
    func unlistedScopes(_ document: OpenIDProviderMetadata) -> [String] {
        guard let offered = document.scopesSupported else { return [] }
        return scopes.filter { !offered.contains($0) }
    }

    /// A URL as compared: scheme and host in lower case, the default port left out, no trailing `/`.
    static func normalised(_ text: String) -> String {
        guard var components = URLComponents(string: text) else { return text }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if (components.scheme == "https" && components.port == 443) || (components.scheme == "http" && components.port == 80) { components.port = nil }
        var result = components.string ?? text
        while result.hasSuffix("/") { result.removeLast() }
        return result
    }
}
