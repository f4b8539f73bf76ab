import PortvaktCore

/// The texts of the server's pages (portal, administration, broker, claim, sandbox mailbox), one
/// catalog file per language under `Resources/Catalogs`.
enum ServerCatalog {
    static let texts = TextCatalog([.nb: PackageResources.nb_json, .nn: PackageResources.nn_json, .en: PackageResources.en_json])
}
