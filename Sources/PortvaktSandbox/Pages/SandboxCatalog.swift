import PortvaktCore

/// The texts of the sandbox's pages, one catalog file per language under `Resources/Catalogs`.
/// The sandbox speaks what BankID and Vipps offer a service: Bokmål and English (its
/// `ui_locales_supported`); Nynorsk is asked for in Bokmål.
enum SandboxCatalog {
    static let languages: [Language] = [.nb, .en]
    static let texts = TextCatalog([.nb: PackageResources.nb_json, .en: PackageResources.en_json])

    /// The sandbox's language for an OIDC `ui_locales` value.
    static func language(uiLocales: String?) -> Language {
        Language(uiLocales: uiLocales).nearest(of: languages) ?? .nb
    }
}
