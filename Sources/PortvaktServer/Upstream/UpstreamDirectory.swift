import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// The identity providers the broker can send users to right now, and the BankID order API.
actor UpstreamDirectory {
    private var providers: [IdentityProvider: UpstreamProvider] = [:]
    private(set) var bankIDOrders: (any BankIDOrderService)?

    func set(_ provider: UpstreamProvider) {
        providers[provider.settings.provider] = provider
    }

    func provider(_ kind: IdentityProvider) -> UpstreamProvider? {
        providers[kind]
    }

    func setBankIDOrders(_ service: any BankIDOrderService) {
        bankIDOrders = service
    }
}
