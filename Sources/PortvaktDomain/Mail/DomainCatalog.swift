import PortvaktCore

/// The texts of the mail Portvakt sends, one catalog file per language under `Resources/Catalogs`.
enum DomainCatalog {
    static let texts = TextCatalog([.nb: PackageResources.nb_json, .nn: PackageResources.nn_json, .en: PackageResources.en_json])
}
