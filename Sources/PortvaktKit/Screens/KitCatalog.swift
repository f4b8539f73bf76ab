import PortvaktProtocol

/// The texts of the app's screens (``ScreenModel``, ``StepUpScreenModel``, the biometric prompt),
/// one catalog file per language under `Resources/Catalogs`, compiled into the app.
enum KitCatalog {
    static let texts = TextCatalog([.nb: PackageResources.nb_json, .nn: PackageResources.nn_json, .en: PackageResources.en_json])
}
