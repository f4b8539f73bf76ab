import Foundation
import Logging
import PortvaktDomain
import PortvaktStorage
import ServiceLifecycle

/// Deletes abandoned logins and membership claims, unredeemed codes, ended BankID orders,
/// unanswered device challenges, sessions that ended a day ago (with their refresh tokens) and
/// failure counters a day old that block nothing, after they expire (each is useless by then, and
/// a login flow holds a sealed PKCE verifier and nonce); and what ``Retention`` keeps only for a
/// while: audit events' client addresses, emails and ended member records. Every few minutes, until shutdown.
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
        // Each on its own: one that fails does not keep the others (the retention periods) waiting.
        let steps: [(String, @Sendable () async throws -> Int)] = [
            ("login flows", { try await store.purgeExpiredLoginFlows(now: now) }),
            ("codes", { try await store.purgeExpiredAuthorizationCodes(now: now) }),
            ("orders", { try await store.purgeExpiredBankIDOrders(now: now) }),
            ("challenges", { try await store.purgeExpiredDeviceChallenges(now: now) }),
            ("sessions", { try await store.purgeEndedSessions(retention: Retention.endedSessions, now: now) }),
            ("throttles", { try await store.purgeStaleThrottles(now: now) }),
            ("portal state", { try await store.purgeExpiredPortalState(now: now) }),
            ("proofs", { try await store.purgeExpiredDPoPProofs(now: now) }),
            ("membership claims", { try await store.purgeExpiredMembershipClaims(now: now) }),
            ("passkey challenges", { try await store.purgeExpiredWebAuthnChallenges(now: now) }),
            ("audit addresses", { try await store.purgeAuditAddresses(before: now.addingTimeInterval(-Retention.auditAddresses)) }),
            ("emails", { try await store.purgeMail(before: now.addingTimeInterval(-Retention.mail)) }),
            ("browser sign-ins", { try await store.purgeExpiredBrowserSessions(now: now) }),
            ("back-channel logouts", { try await store.purgeLogouts(before: now.addingTimeInterval(-Retention.logouts)) }),
            ("ended member records", { try await store.purgeEndedMemberRecords(before: now.addingTimeInterval(-Retention.endedMemberRecords)) }),
        ]
        var purged: [String: String] = [:]
        for (what, step) in steps {
            do {
                let count = try await step()
                if count > 0 { purged[what] = "\(count)" }
            } catch {
                logger.warning("Could not purge", metadata: ["what": "\(what)", "error": "\(error)"])
            }
        }
        if !purged.isEmpty { logger.debug("Purged what had expired", metadata: purged.mapValues { .string($0) }) }
    }
}

/// Service Lifecycle logs a service by its description: the name, never the settings it holds.
extension ExpiryPurgeService: CustomStringConvertible {
    var description: String { "ExpiryPurgeService" }
}
