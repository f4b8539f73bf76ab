import PortvaktCore

/// One entry of a page's language switch: the same page in another language, named in that language.
public struct LanguageLink: PageValues {
    public let href: String
    public let lang: String
    public let name: String

    /// The switch of a page in `language`: every other language, in catalog order, at `address(language)`.
    public static func links(from language: Language, offering: [Language] = Language.allCases, _ address: (Language) -> String) -> [LanguageLink] {
        offering.filter { $0 != language }.map { LanguageLink(href: address($0), lang: $0.rawValue, name: $0.endonym) }
    }
}
