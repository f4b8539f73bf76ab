import Foundation
import Logging
import ServiceLifecycle

/// Looks at each configured provider once a minute, so that `/health/ready` says "BankID
/// unreachable" (and when it last looked) even while nobody signs in, and says when it is back.
struct ProviderWatch: Service {
    let upstreams: UpstreamDirectory
    let logger: Logger
    var interval: Duration = .seconds(60)

    func run() async throws {
        await repeatUntilShutdown(every: interval) {
            for provider in await upstreams.all {
                let before = await provider.state?.state
                let now = await provider.check(now: Date())
                if let before, before != now.state {
                    logger.notice("identity provider is now \(now.state.rawValue)", metadata: [
                        "provider": "\(provider.settings.provider.rawValue)", "reason": "\(now.detail ?? "-")",
                    ])
                }
            }
            if let orders = await upstreams.watchedBankIDOrders {
                let now = await orders.check(now: Date())
                if let before = await upstreams.recordBankIDOrders(now), before.state != now.state {
                    logger.notice("identity provider is now \(now.state.rawValue)", metadata: ["provider": "\(BankIDOrderAPI.stateName)", "reason": "\(now.detail ?? "-")"])
                }
            }
        }
    }
}
