import Hummingbird
import PortvaktCore

/// The portal's language: `ui_locales`, then the saved choice (a cookie the switch sets), then
/// `Accept-Language`, then Bokmål.
enum PortalLanguage {
    static func of(_ request: Request) -> Language {
        if let asked = request.uri.queryParameters.get("ui_locales"),
           let language = asked.split(separator: " ").lazy.compactMap({ Language(tag: String($0)) }).first {
            return language
        }
        if let saved = request.cookies[PortalSessionCookie.languageName], let language = Language(rawValue: saved.value) {
            return language
        }
        return request.headers[.acceptLanguage].flatMap(preferred) ?? .nb
    }

    /// The supported language with the highest weight in an `Accept-Language` value (RFC 9110 §12.5.4).
    static func preferred(_ header: String) -> Language? {
        var best: (language: Language, weight: Double)?
        for range in header.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, let language = Language(tag: tag) else { continue }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if weight > 0, weight > (best?.weight ?? 0) { best = (language, weight) }
        }
        return best?.language
    }
}
