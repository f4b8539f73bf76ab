import Foundation
import Logging
import PortvaktCore
import PortvaktModels

/// The start-up look at each configured provider: a wrong discovery URL, a client
/// authentication the provider does not take or a provider that is away is said at start, not
/// at the first member's login.
enum ProviderCheck {
    /// - Parameter refusing: production without `--start-without-providers`: a provider whose
    ///   answer does not fit its settings ends the start (``ConfigurationError``, exit 78), since
    ///   only a change of settings mends it. One that does not answer is logged and the server
    ///   starts: an instance restarted while BankID is away still serves passwords and sessions.
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
            case .unreachable:
                logger.error("identity provider does not answer; its logins fail until it does", metadata: [
                    "provider": "\(provider.rawValue)", "reason": "\(name) (PORTVAKT_\(provider.rawValue.uppercased())_*) is unreachable: \(state.detail ?? "no reason given")",
                ])
            case .misconfigured:
                let line = "\(name) (PORTVAKT_\(provider.rawValue.uppercased())_*) is misconfigured: \(state.detail ?? "no reason given")"
                problems.append(line)
                logger.error("identity provider check failed", metadata: ["provider": "\(provider.rawValue)", "reason": "\(line)"])
            }
            let unlisted = await providers.first { $0.settings.provider == provider }?.unlistedScopes ?? []
            if !unlisted.isEmpty {
                logger.warning("identity provider does not list scopes Portvakt asks for (register them for this client if logins fail)", metadata: [
                    "provider": "\(provider.rawValue)", "scopes": "\(unlisted.joined(separator: " "))",
                ])
            }
        }
        if refusing, !problems.isEmpty {
            throw ConfigurationError(problems.joined(separator: "; ") + " (`serve --start-without-providers` starts anyway)")
        }
    }
}
