import PortvaktProtocol

/// The texts of the command-line app's own lines (the screens' texts are PortvaktKit's), one
/// catalog file per language under `Resources/Catalogs`.
enum CLICatalog {
    static let texts = TextCatalog([.nb: PackageResources.nb_json, .nn: PackageResources.nn_json, .en: PackageResources.en_json])
}
