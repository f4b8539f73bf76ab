/// The two languages every page and message speaks. Bokmål unless the user asks for English.
public enum Language: String, Sendable, CaseIterable, Codable {
    case nb, en

    /// The first supported tag of an OIDC `ui_locales` value (space-separated, RFC 5646).
    public init(uiLocales: String?) {
        let tags = (uiLocales ?? "").split(separator: " ").map { $0.lowercased() }
        self = tags.lazy.compactMap { tag -> Language? in
            if tag.hasPrefix("en") { return .en }
            if tag.hasPrefix("nb") || tag.hasPrefix("no") || tag.hasPrefix("nn") { return .nb }
            return nil
        }.first ?? .nb
    }

    public func pick(_ nb: String, _ en: String) -> String {
        self == .nb ? nb : en
    }

    public var other: Language { self == .nb ? .en : .nb }
}
