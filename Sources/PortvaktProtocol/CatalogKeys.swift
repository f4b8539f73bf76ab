/// The keys of one namespace of a ``TextCatalog`` as a Swift type: every text a part of Portvakt
/// shows is a case, so a misspelt key does not compile and the catalog tests can tell a key
/// nobody asks for.
public protocol CatalogKeys: RawRepresentable<String>, CaseIterable, Sendable {
    /// The catalog the keys are in.
    static var catalog: TextCatalog { get }
    /// The first part of every key of the type (`portal` for `portal.sign_in`).
    static var namespace: String { get }
    /// The values the text takes (`{{name}}`), all text; `count` is the number that chooses a
    /// plural form. Empty unless a case says otherwise.
    var placeholders: Set<String> { get }
}

extension CatalogKeys {
    public var placeholders: Set<String> { [] }

    /// The key in the catalog.
    public var key: String { Self.namespace + "." + rawValue }

    /// The text in `language` with `values` in its placeholders.
    public func text(_ language: Language, _ values: [String: String] = [:]) -> String {
        assert(Set(values.keys) == placeholders, "\(key) takes \(placeholders), not \(values.keys)")
        return Self.catalog.text(key, language, values)
    }

    /// The text for `count` in `language`.
    public func text(_ language: Language, count: Int, _ values: [String: String] = [:]) -> String {
        assert(Set(values.keys).union(["count"]) == placeholders, "\(key) takes \(placeholders), not \(values.keys)")
        return Self.catalog.text(key, language, count: count, values)
    }
}
