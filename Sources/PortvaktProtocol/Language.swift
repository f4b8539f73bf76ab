/// The two languages every page and message speaks. Bokmål unless the user asks for English.
public enum Language: String, Sendable, CaseIterable, Codable {
    case nb, en

    /// The first supported tag of an OIDC `ui_locales` value (space-separated, RFC 5646).
    public init(uiLocales: String?) {
        self = (uiLocales ?? "").split(separator: " ").lazy.compactMap { Language(tag: String($0)) }.first ?? .nb
    }

    /// The language of one language tag (RFC 5646: `en-GB`, `nb`, `no`, `nn`), nil when neither.
    public init?(tag: String) {
        let tag = tag.lowercased()
        if tag.hasPrefix("en") {
            self = .en
        } else if tag.hasPrefix("nb") || tag.hasPrefix("no") || tag.hasPrefix("nn") {
            self = .nb
        } else {
            return nil
        }
    }

    public func pick(_ nb: String, _ en: String) -> String {
        self == .nb ? nb : en
    }

    public var other: Language { self == .nb ? .en : .nb }
}
