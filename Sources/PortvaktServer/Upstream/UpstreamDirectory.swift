import PortvaktStorage

/// The identity providers the broker can send users to right now.
actor UpstreamDirectory {
    private var providers: [IdentityProvider: UpstreamProvider] = [:]

    func set(_ provider: UpstreamProvider) {
        providers[provider.settings.provider] = provider
    }

    func provider(_ kind: IdentityProvider) -> UpstreamProvider? {
        providers[kind]
    }
}
