/// The texts every client shows alike (the messages of ``UserMessage``, role names), one catalog
/// file per language under `Resources/Catalogs`, compiled in so the app gets them too.
enum ProtocolCatalog {
    static let texts = TextCatalog([.nb: PackageResources.nb_json, .nn: PackageResources.nn_json, .en: PackageResources.en_json])
}
