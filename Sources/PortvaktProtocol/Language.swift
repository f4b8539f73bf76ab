/// The languages every page and message speaks: Bokmål, Nynorsk and English. Bokmål unless the
/// user asks for another.
public enum Language: String, Sendable, CaseIterable, Codable {
    case nb, nn, en

    /// A stored language this release does not speak (one a later release added) reads as Bokmål,
    /// so a login a newer instance began still finishes here.
    public init(from decoder: Decoder) throws {
        self = Language(rawValue: try decoder.singleValueContainer().decode(String.self)) ?? .nb
    }

    /// The first supported tag of an OIDC `ui_locales` value (space-separated, RFC 5646).
    public init(uiLocales: String?) {
        self.init(preferred: (uiLocales ?? "").split(separator: " ").map(String.init))
    }

    /// The first of someone's languages, most preferred first (an app's `Locale.preferredLanguages`),
    /// that Portvakt speaks; Bokmål when none is.
    public init(preferred tags: [String]) {
        self = tags.lazy.compactMap(Language.init(tag:)).first ?? .nb
    }

    /// The language of one language tag (RFC 5646: `en-GB`, `nb`, `no`, `nn-NO`), nil when none.
    /// `no` (Norwegian without a written standard) is Bokmål, as most who send it write.
    public init?(tag: String) {
        let primary = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        switch primary {
        case "en": self = .en
        case "nb", "no": self = .nb
        case "nn": self = .nn
        default: return nil
        }
    }

    /// Where a text is looked for when this language's catalog lacks it: Bokmål and Nynorsk fall
    /// back to each other, then to English.
    public var fallbacks: [Language] {
        switch self {
        case .nb: [.nb, .nn, .en]
        case .nn: [.nn, .nb, .en]
        case .en: [.en, .nb]
        }
    }

    /// The language's name in itself, as a language switch offers it to someone who reads it.
    public var endonym: String {
        switch self {
        case .nb: "Norsk (bokmål)"
        case .nn: "Norsk (nynorsk)"
        case .en: "English"
        }
    }

    /// The languages a switch offers from this one.
    public var others: [Language] { Language.allCases.filter { $0 != self } }

    /// The BCP 47 locale for dates and numbers.
    public var locale: String {
        switch self {
        case .nb: "nb_NO"
        case .nn: "nn_NO"
        case .en: "en_GB"
        }
    }
}

extension Language {
    /// The nearest of `offered` to this language (itself, then its fallbacks); nil when none is.
    public func nearest(of offered: [Language]) -> Language? {
        fallbacks.first(where: offered.contains)
    }

    /// The nearest of an OIDC provider's `ui_locales_supported` tags to this language, as the
    /// provider spells it; nil when none is.
    public func nearest(inTags offered: [String]) -> String? {
        let languages = offered.map { (tag: $0, language: Language(tag: $0)) }
        return nearest(of: languages.compactMap(\.language)).flatMap { near in languages.first { $0.language == near }?.tag }
    }
}
