/// The faults switched on right now, per provider. Changed at runtime through the admin API.
actor FaultBoard {
    private var settings: [SandboxProvider: FaultSettings]

    init(_ initial: [SandboxProvider: FaultSettings]) {
        settings = initial
    }

    func settings(for provider: SandboxProvider) -> FaultSettings {
        settings[provider] ?? FaultSettings()
    }

    func set(_ new: FaultSettings, for provider: SandboxProvider) {
        settings[provider] = new
    }

    func clearAll() {
        settings = [:]
    }

    func all() -> [String: FaultSettings] {
        Dictionary(uniqueKeysWithValues: SandboxProvider.allCases.map { ($0.rawValue, settings(for: $0)) })
    }
}
