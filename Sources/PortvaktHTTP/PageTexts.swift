import PortvaktCore

/// A set of page texts of one catalog namespace, named by id in the templates (`t.<id>`).
public protocol PageTexts: CatalogKeys {}

extension PageTexts {
    /// The texts by id, for a page's template.
    public static func table(_ language: Language) -> [String: String] {
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0.text(language)) })
    }
}
