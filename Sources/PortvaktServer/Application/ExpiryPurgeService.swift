import Foundation
import Logging
import PortvaktDomain
import PortvaktStorage
import ServiceLifecycle

/// Deletes abandoned logins and membership claims, unredeemed codes, ended BankID orders,
/// unanswered device challenges, sessions that ended a day ago (with their refresh tokens) and
/// failure counters a day old that block nothing, after they expire (each is useless by then, and
/// a login flow holds a sealed PKCE verifier and nonce); and what ``Retention`` keeps only for a
/// while: audit events' client addresses, emails, expired invitations. Every few minutes, until
/// shutdown.
struct ExpiryPurgeService: Service {
    let store: PortvaktStore
    let readiness: Readiness
    let logger: Logger
    var interval: Duration = .seconds(300)

    func run() async throws {
        guard await readiness.waitUntilMigrated() else { return }
        await repeatUntilShutdown(every: interval) { await purge(now: Date()) }
    }

    func purge(now: Date) async {
        do {
            let flows = try await store.purgeExpiredLoginFlows(now: now)
            let codes = try await store.purgeExpiredAuthorizationCodes(now: now)
            let orders = try await store.purgeExpiredBankIDOrders(now: now)
            let challenges = try await store.purgeExpiredDeviceChallenges(now: now)
            let sessions = try await store.purgeEndedSessions(retention: Retention.endedSessions, now: now)
            try await store.purgeStaleThrottles(now: now)
            try await store.purgeExpiredPortalState(now: now)
            try await store.purgeExpiredDPoPProofs(now: now)
            try await store.purgeExpiredMembershipClaims(now: now)
            try await store.purgeAuditAddresses(before: now.addingTimeInterval(-Retention.auditAddresses))
            try await store.purgeMail(before: now.addingTimeInterval(-Retention.mail))
            try await store.purgePasswordInvites(expiredBefore: now.addingTimeInterval(-Retention.invitations))
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
