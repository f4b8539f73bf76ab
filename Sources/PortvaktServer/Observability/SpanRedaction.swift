import PortvaktCore
import Tracing

/// What a span attribute may say. Strings go through ``Redactor`` (anything shaped like a
/// personnummer, JWTs); a URL's query (`url.query`, and the query of `url.full`) keeps its
/// parameter names but only the plain values of ``keptQueryParameters``: `code`, `state`, `request_uri`, `claim`, tokens,
/// nonces and PKCE values, and anything not known to be harmless, become `[redacted]`.
public enum SpanRedaction {
    /// Query parameters whose values say nothing secret and help to read a trace.
    static let keptQueryParameters: Set<String> = [
        "client_id", "response_type", "response_mode", "scope", "code_challenge_method", "prompt", "lang", "ui_locales", "idp_hint",
    ]

    public static func attributes(_ attributes: SpanAttributes) -> SpanAttributes {
        var redacted = SpanAttributes()
        attributes.forEach { name, value in redacted.set(name, value: Self.value(value, of: name)) }
        return redacted
    }

    static func value(_ value: SpanAttribute, of name: String) -> SpanAttribute {
        switch value {
        case .string(let text): .string(Self.text(text, of: name))
        case .stringArray(let texts): .stringArray(texts.map { Self.text($0, of: name) })
        case .stringConvertible(let convertible): .string(Self.text(convertible.description, of: name))
        case .stringConvertibleArray(let convertibles): .stringArray(convertibles.map { Self.text($0.description, of: name) })
        default: value
        }
    }

    static func text(_ text: String, of name: String) -> String {
        switch name {
        case "url.query": Redactor.sanitize(query(text))
        case "url.full": Redactor.sanitize(url(text))
        default: Redactor.sanitize(text)
        }
    }

    /// `a=1&code=xyz` → `a=[redacted]&code=[redacted]` unless a name is in ``keptQueryParameters``.
    public static func query(_ query: String) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let name = pair.prefix { $0 != "=" }
            let decodedName = PercentEncoding.decode(String(name).replacingOccurrences(of: "+", with: " ")) ?? ""
            // Kept only when plain: `client_id=web;code=…` or `scope=a?code=…` smuggle nothing through.
            let value = pair.drop { $0 != "=" }.dropFirst()
            if keptQueryParameters.contains(decodedName), value.utf8.allSatisfy(Self.isPlain) { return String(pair) }
            return pair.contains("=") ? "\(name)=\(Redactor.placeholder)" : Redactor.placeholder
        }.joined(separator: "&")
    }

    /// Letters, digits and `%+-._:` (a scope's spaces are `+` or `%20`).
    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "%+-._:".utf8.contains(byte)
        }
    }

    /// A whole URL with its query redacted, and its fragment (which may hold tokens) and the user and
    /// password in its authority dropped.
    public static func url(_ url: String) -> String {
        let withoutFragment = withoutUserInfo(url).prefix { $0 != "#" }
        guard let mark = withoutFragment.firstIndex(of: "?") else { return String(withoutFragment) }
        return "\(withoutFragment[..<mark])?\(query(String(withoutFragment[withoutFragment.index(after: mark)...])))"
    }

    /// `scheme://user:password@host/…` without `user:password@`.
    private static func withoutUserInfo(_ url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let authorityEnd = url[schemeEnd.upperBound...].firstIndex { "/?#".contains($0) } ?? url.endIndex
        guard let at = url[schemeEnd.upperBound..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<schemeEnd.upperBound]) + url[url.index(after: at)...]
    }
}
