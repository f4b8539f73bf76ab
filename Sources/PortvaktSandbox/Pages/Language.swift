/// The two languages every sandbox page speaks. Bokmål unless the client asks for English.
enum Language: String, Sendable {
    case nb, en

    /// The first supported tag of an OIDC `ui_locales` value (space-separated, RFC 5646).
    init(uiLocales: String?) {
        let tags = (uiLocales ?? "").split(separator: " ").map { $0.lowercased() }
        self = tags.lazy.compactMap { tag -> Language? in
            if tag.hasPrefix("en") { return .en }
            if tag.hasPrefix("nb") || tag.hasPrefix("no") || tag.hasPrefix("nn") { return .nb }
            return nil
        }.first ?? .nb
    }

    func pick(_ nb: String, _ en: String) -> String {
        self == .nb ? nb : en
    }

    var other: Language { self == .nb ? .en : .nb }
}
