import Foundation
import Logging
import PortvaktStorage
import ServiceLifecycle

/// Deletes abandoned logins, unredeemed codes, ended BankID orders, unanswered device challenges
/// sessions that ended a day ago (with their refresh tokens) and failure counters a day old that
/// block nothing, after they expire (each is
/// useless by then, and a login flow holds a sealed PKCE verifier and nonce). Every few minutes,
/// until shutdown.
struct ExpiryPurgeService: Service {
    let store: PortvaktStore
    let readiness: Readiness
    let logger: Logger
    var interval: Duration = .seconds(300)

    func run() async throws {
        guard await readiness.waitUntilMigrated() else { return }
        await repeatUntilShutdown(every: interval) { await purge() }
    }

    private func purge() async {
        do {
            let flows = try await store.purgeExpiredLoginFlows()
            let codes = try await store.purgeExpiredAuthorizationCodes()
            let orders = try await store.purgeExpiredBankIDOrders()
            let challenges = try await store.purgeExpiredDeviceChallenges()
            let sessions = try await store.purgeEndedSessions()
            try await store.purgeStaleThrottles()
            try await store.purgeExpiredPortalState()
            try await store.purgeExpiredDPoPProofs()
            try await store.purgeExpiredMembershipClaims()
            if flows + codes + orders + challenges + sessions > 0 {
                logger.debug("Purged expired logins", metadata: [
                    "flows": "\(flows)", "codes": "\(codes)", "orders": "\(orders)", "challenges": "\(challenges)", "sessions": "\(sessions)",
                ])
            }
        } catch {
            logger.warning("Could not purge expired logins", metadata: ["error": "\(error)"])
        }
    }
}

/// Service Lifecycle logs a service by its description: the name, never the settings it holds.
extension ExpiryPurgeService: CustomStringConvertible {
    var description: String { "ExpiryPurgeService" }
}
