import Foundation

/// Every text of one part of Portvakt, by key, in each language: the one lookup the server, the
/// sandbox and PortvaktKit read their words through.
///
/// A catalog is one JSON file per language in i18next's format (version 4), which translators'
/// tools (Weblate, Crowdin, Lokalise) read: objects nest keys (`"portal": {"sign_in": …}` is
/// `portal.sign_in`), a value is named in double braces (`{{service}}`), and a text that shows a
/// number has a form per CLDR plural category (`wrong_code_one`, `wrong_code_other`) with the
/// number as `{{count}}`. The files are compiled into the binary (`.embedInCode`).
public struct TextCatalog: Sendable {
    private let texts: [Language: [String: String]]

    /// - Parameter files: each language's catalog as its JSON bytes.
    public init(_ files: [Language: [UInt8]]) {
        texts = files.mapValues { bytes in
            // The catalogs are part of the build: one that does not parse is a programming error.
            Self.flatten(try! JSONDecoder().decode(Node.self, from: Data(bytes)))
        }
    }

    /// The text of `key` in `language` (or the nearest language that has it) with `values` in its
    /// placeholders; the key itself when no language has it, which the catalog tests rule out.
    public func text(_ key: String, _ language: Language, _ values: [String: String] = [:]) -> String {
        Self.fill(entry(key, language) ?? key, values)
    }

    /// The form of `key` for `count` (`key_one` or `key_other`), the number in `{{count}}`.
    public func text(_ key: String, _ language: Language, count: Int, _ values: [String: String] = [:]) -> String {
        text(key + "_" + Self.pluralCategory(count), language, values.merging(["count": String(count)]) { _, new in new })
    }

    /// The keys of one language's catalog, plural forms as written (`wrong_code_one`).
    public func keys(_ language: Language) -> [String: String] { texts[language] ?? [:] }

    /// The names a text takes (`{{name}}`).
    public static func placeholders(in text: String) -> Set<String> {
        Set(text.matches(of: placeholder).map { String($0.1) })
    }

    /// CLDR's cardinal category of a whole number in Bokmål, Nynorsk and English: `one` for 1, `other` otherwise.
    static func pluralCategory(_ count: Int) -> String { count == 1 ? "one" : "other" }

    private func entry(_ key: String, _ language: Language) -> String? {
        for candidate in language.fallbacks {
            if let text = texts[candidate]?[key] { return text }
        }
        return nil
    }

    nonisolated(unsafe) private static let placeholder = /\{\{([a-z_]+)\}\}/

    private static func fill(_ text: String, _ values: [String: String]) -> String {
        guard !values.isEmpty else { return text }
        return text.replacing(placeholder) { match in values[String(match.1)] ?? String(match.0) }
    }

    private indirect enum Node: Decodable {
        case text(String)
        case table([String: Node])

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .table(try container.decode([String: Node].self))
            }
        }
    }

    private static func flatten(_ node: Node, prefix: String = "") -> [String: String] {
        switch node {
        case .text(let text): return [prefix: text]
        case .table(let table):
            return table.reduce(into: [:]) { flat, entry in
                flat.merge(flatten(entry.value, prefix: prefix.isEmpty ? entry.key : prefix + "." + entry.key)) { first, _ in first }
            }
        }
    }
}
