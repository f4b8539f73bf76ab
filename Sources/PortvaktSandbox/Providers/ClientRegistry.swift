/// The clients registered with the simulated providers, by provider and client id.
actor ClientRegistry {
    private var clients: [SandboxProvider: [String: SandboxClient]] = [:]

    init(_ initial: [SandboxClient]) {
        for client in initial { clients[client.provider, default: [:]][client.clientID] = client }
    }

    /// Adds the client, or replaces the one with the same provider and id.
    func register(_ client: SandboxClient) {
        clients[client.provider, default: [:]][client.clientID] = client
    }

    func client(_ id: String, at provider: SandboxProvider) -> SandboxClient? {
        clients[provider]?[id]
    }

    func all() -> [SandboxClient] {
        SandboxProvider.allCases.flatMap { provider in (clients[provider] ?? [:]).values.sorted { $0.clientID < $1.clientID } }
    }
}
