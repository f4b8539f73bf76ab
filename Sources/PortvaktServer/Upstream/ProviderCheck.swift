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
    ///   - orders: the settings' BankID order API, looked at the same way; its state goes to `record`.
    static func atStart(
        _ providers: [UpstreamProvider], orders: BankIDOrderAPI? = nil, record: @Sendable (ProviderState) async -> Void = { _ in },
        refusing: Bool, logger: Logger, now: Date = Date()
    ) async throws(ConfigurationError) {
        let states = await withTaskGroup(of: (String, ProviderState).self) { group in
            for provider in providers {
                group.addTask { (await provider.provider.rawValue, await provider.check(now: now)) }
            }
            if let orders { group.addTask { (BankIDOrderAPI.stateName, await orders.check(now: now)) } }
            var states: [(String, ProviderState)] = []
            for await state in group { states.append(state) }
            return states.sorted { $0.0 < $1.0 }
        }
        var problems: [String] = []
        for (provider, state) in states {
            let name = switch provider {
            case BankIDOrderAPI.stateName: "The BankID order API (PORTVAKT_BANKID_ORDER_*)"
            case IdentityProvider.bankid.rawValue: "BankID (PORTVAKT_BANKID_*)"
            default: "Vipps (PORTVAKT_VIPPS_*)"
            }
            if provider == BankIDOrderAPI.stateName { await record(state) }
            switch state.state {
            case .reachable:
                logger.info("identity provider answers", metadata: ["provider": "\(provider)"])
            case .unreachable:
                logger.error("identity provider does not answer; its logins fail until it does", metadata: [
                    "provider": "\(provider)", "reason": "\(name) is unreachable: \(state.detail ?? "no reason given")",
                ])
            case .misconfigured:
                let line = "\(name) is misconfigured: \(state.detail ?? "no reason given")"
                problems.append(line)
                logger.error("identity provider check failed", metadata: ["provider": "\(provider)", "reason": "\(line)"])
            }
            let unlisted = await providers.first { $0.settings.provider.rawValue == provider }?.unlistedScopes ?? []
            if !unlisted.isEmpty {
                logger.warning("identity provider does not list scopes Portvakt asks for (register them for this client if logins fail)", metadata: [
                    "provider": "\(provider)", "scopes": "\(unlisted.joined(separator: " "))",
                ])
            }
        }
        if refusing, !problems.isEmpty {
            throw ConfigurationError(problems.joined(separator: "; ") + " (`serve --start-without-providers` starts anyway)")
        }
    }
}
