import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// The identity providers the broker can send users to right now, and the BankID order API.
actor UpstreamDirectory {
    private var providers: [IdentityProvider: UpstreamProvider] = [:]
    private(set) var bankIDOrders: (any BankIDOrderService)?
    /// The order API the settings configure (not the sandbox's), watched as the providers are.
    private(set) var watchedBankIDOrders: BankIDOrderAPI?
    private var bankIDOrdersState: ProviderState?

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
        if let bankIDOrdersState { states[BankIDOrderAPI.stateName] = bankIDOrdersState.published }
        return states
    }

    /// The providers configured by settings (not the sandbox's), to be watched.
    var all: [UpstreamProvider] { Array(providers.values) }

    /// - Parameter watched: the settings' order API, whose state `/health/ready` shows.
    func setBankIDOrders(_ api: BankIDOrderAPI, watched: Bool = false) {
        bankIDOrders = api
        if watched { watchedBankIDOrders = api }
    }

    /// Records the order API's state; returns the state it had before.
    @discardableResult
    func recordBankIDOrders(_ state: ProviderState) -> ProviderState? {
        defer { bankIDOrdersState = state }
        return bankIDOrdersState
    }
}
