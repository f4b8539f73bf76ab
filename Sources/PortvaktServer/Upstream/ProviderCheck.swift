import Foundation
import Logging
import PortvaktCore
import PortvaktModels

/// The start-up look at each configured provider: a wrong discovery URL, a client
/// authentication the provider does not take or a provider that is away is said at start, not
/// at the first member's login.
enum ProviderCheck {
    /// - Parameter refusing: production without `--start-without-providers`: a provider that does
    ///   not answer or does not fit ends the start (``ConfigurationError``, exit 78); otherwise it
    ///   is logged and the server starts.
    static func atStart(_ providers: [UpstreamProvider], refusing: Bool, logger: Logger, now: Date = Date()) async throws(ConfigurationError) {
        let states = await withTaskGroup(of: (IdentityProvider, ProviderState).self) { group in
            for provider in providers {
                group.addTask { (await provider.provider, await provider.check(now: now)) }
            }
            var states: [(IdentityProvider, ProviderState)] = []
            for await state in group { states.append(state) }
            return states.sorted { $0.0.rawValue < $1.0.rawValue }
        }
        var problems: [String] = []
        for (provider, state) in states {
            let name = provider == .bankid ? "BankID" : "Vipps"
            switch state.state {
            case .reachable:
                logger.info("identity provider answers", metadata: ["provider": "\(provider.rawValue)"])
            case .unreachable, .misconfigured:
                let line = "\(name) (PORTVAKT_\(provider.rawValue.uppercased())_*) is \(state.state.rawValue): \(state.detail ?? "no reason given")"
                problems.append(line)
                logger.error("identity provider check failed", metadata: ["provider": "\(provider.rawValue)", "reason": "\(line)"])
            }
        }
        if refusing, !problems.isEmpty {
            throw ConfigurationError(problems.joined(separator: "; ") + " (`serve --start-without-providers` starts anyway)")
        }
    }
}
