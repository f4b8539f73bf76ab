#if canImport(AuthenticationServices) && canImport(UIKit) && canImport(LocalAuthentication) && canImport(Network)
import AuthenticationServices
import Foundation
import UIKit

extension PortvaktPlatform {
    /// Apple's adapters: the Keychain (`service`, by default the bundle identifier, with 1.0.0's
    /// items moved into it; an optional shared access group), the device
    /// key and (where there is one) the proof key in the Secure Enclave, `ASWebAuthenticationSession`
    /// presented from `anchor`, the BankID app by its link, and `NWPathMonitor`.
    @MainActor
    public static func apple(
        anchor: @escaping @MainActor () -> ASPresentationAnchor?,
        service: String = PortvaktPlatform.keychainService(bundleIdentifier: Bundle.main.bundleIdentifier), accessGroup: String? = nil
    ) -> PortvaktPlatform {
        let storage = PortvaktPlatform.storage(KeychainStorage(service: service, accessGroup: accessGroup), service: service, accessGroup: accessGroup) {
            KeychainStorage(service: $0, accessGroup: accessGroup)
        }
        return PortvaktPlatform(
            storage: storage,
            deviceKey: SecureEnclaveDeviceKey(storage: storage),
            proofKey: StoredProofKey(storage: storage, maker: .secureEnclaveOrSoftware),
            browser: AppleWebAuthenticator(anchor: anchor),
            opener: AppleURLOpener(),
            reachability: NetworkReachability(),
            biometry: { SecureEnclaveDeviceKey.availability() },
            firstRun: .userDefaults(),
            // The model ("iPhone", "iPad"): since iOS 16 `name` is the model too without the
            // user-assigned-device-name entitlement; the member's own words come at enrolment.
            deviceName: UIDevice.current.model,
            platform: "ios"
        )
    }
}
#endif
