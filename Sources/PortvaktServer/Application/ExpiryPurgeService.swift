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
        // Named by the table they purge (PRIVACY.md's), which is the failure metric's label.
        let steps: [(String, @Sendable () async throws -> Int)] = [
            ("login_flows", { try await store.purgeExpiredLoginFlows(now: now) }),
            ("authorization_codes", { try await store.purgeExpiredAuthorizationCodes(now: now) }),
            ("bankid_orders", { try await store.purgeExpiredBankIDOrders(now: now) }),
            ("device_challenges", { try await store.purgeExpiredDeviceChallenges(now: now) }),
            ("sessions", { try await store.purgeEndedSessions(retention: Retention.endedSessions, now: now) }),
            ("login_throttles", { try await store.purgeStaleThrottles(now: now) }),
            ("portal_state", { try await store.purgeExpiredPortalState(now: now) }),
            ("dpop_proofs", { try await store.purgeExpiredDPoPProofs(now: now) }),
            ("membership_claims", { try await store.purgeExpiredMembershipClaims(now: now) }),
            ("webauthn_challenges", { try await store.purgeExpiredWebAuthnChallenges(now: now) }),
            ("audit_addresses", { try await store.purgeAuditAddresses(before: now.addingTimeInterval(-Retention.auditAddresses)) }),
            ("mail_outbox", { try await store.purgeMail(before: now.addingTimeInterval(-Retention.mail)) }),
            ("browser_sessions", { try await store.purgeExpiredBrowserSessions(now: now) }),
            ("logout_outbox", { try await store.purgeLogouts(before: now.addingTimeInterval(-Retention.logouts)) }),
            ("member_records", { try await store.purgeEndedMemberRecords(before: now.addingTimeInterval(-Retention.endedMemberRecords)) }),
        ]
        PortvaktMetrics.purgeSteps(steps.map(\.0))
        var purged: [String: String] = [:]
        for (what, step) in steps {
            do {
                let count = try await step()
                if count > 0 { purged[what] = "\(count)" }
            } catch {
                // Counted as well as logged: data kept past its period is an alert, not a log line.
                PortvaktMetrics.purgeFailed(step: what)
                logger.error("Could not purge", metadata: ["what": "\(what)", "error": "\(error)"])
            }
        }
        if !purged.isEmpty { logger.debug("Purged what had expired", metadata: purged.mapValues { .string($0) }) }
    }
}

/// Service Lifecycle logs a service by its description: the name, never the settings it holds.
extension ExpiryPurgeService: CustomStringConvertible {
    var description: String { "ExpiryPurgeService" }
}
