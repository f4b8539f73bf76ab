import Foundation

/// Where the in-app browser hands the login back to the app, derived from the redirect URI the
/// app registered. `ASWebAuthenticationSession` wants the scheme alone (`no.portvakt.app`, never
/// `no.portvakt.app:/oauth/callback`), or, from iOS 17.4, an https host and path for a
/// universal link; the CLI listens on a loopback port.
public enum BrowserCallback: Sendable, Hashable {
    /// A private-use scheme (RFC 8252 §7.1): the scheme only.
    case customScheme(String)
    /// A claimed https redirect (RFC 8252 §7.2, a universal link).
    case https(host: String, path: String)
    /// A loopback redirect (RFC 8252 §7.3): the CLI's own listener.
    case loopback(URL)

    /// The callback for `redirectURI`; nil when it is none of the three (the login cannot start).
    public init?(redirectURI: String) {
        guard let components = URLComponents(string: redirectURI), let scheme = components.scheme?.lowercased() else { return nil }
        switch scheme {
        case "https":
            guard let host = components.host?.lowercased(), !host.isEmpty, components.user == nil, components.port == nil else { return nil }
            self = .https(host: host, path: components.path.isEmpty ? "/" : components.path)
        case "http":
            guard let host = components.host, ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host), let url = URL(string: redirectURI) else { return nil }
            self = .loopback(url)
        default:
            // RFC 8252 §7.1: a reverse domain name, so a scheme without a dot is someone else's.
            guard scheme.contains("."), scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return nil }
            self = .customScheme(scheme)
        }
    }

    /// Whether `url` is an answer at this callback (the browser may hand back anything).
    public func matches(_ url: URL) -> Bool {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let scheme = components.scheme?.lowercased() else { return false }
        switch self {
        case .customScheme(let expected):
            return scheme == expected
        case .https(let host, let path):
            return scheme == "https" && components.host?.lowercased() == host && components.port == nil && components.path == path
        case .loopback(let redirect):
            // The answer comes from the app's own listener, which knows its port (RFC 8252 §7.3).
            guard let expected = URLComponents(url: redirect, resolvingAgainstBaseURL: false) else { return false }
            return scheme == "http" && components.host == expected.host && components.path == expected.path
        }
    }
}
