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

    /// Each configured provider's last known state, by name (`/health/ready`).
    func states() async -> [String: ProviderState.Published] {
        var states: [String: ProviderState.Published] = [:]
        for (kind, provider) in providers {
            if let state = await provider.state { states[kind.rawValue] = state.published }
        }
        return states
    }

    /// The providers configured by settings (not the sandbox's), to be watched.
    var all: [UpstreamProvider] { Array(providers.values) }

    func setBankIDOrders(_ service: any BankIDOrderService) {
        bankIDOrders = service
    }
}
