import Foundation
import PortvaktDomain
import PortvaktCore
import PortvaktStorage

/// Checks an email and password. One answer for a wrong password and an unknown email; failures
/// per account and per address are throttled with growing waits, counted before bcrypt runs.
struct PasswordLogin: Sendable {
    let store: PortvaktStore
    let checker: PasswordChecker
    let throttle: LoginThrottle
    let now: @Sendable () -> Date

    enum Outcome {
        case accepted(User)
        case refused
        case throttled
    }

    func check(email: String, password: String, address: String) async throws -> Outcome {
        let now = self.now()
        let keys: [LoginThrottle.Key] = [.account(email), .address(address)]
        // Counted before bcrypt runs, so parallel guesses cannot all be judged (review II, item 4).
        if try await throttle.reserve(keys, now: now) != nil {
            try await auditFailure("throttled", address: address, now: now)
            return .throttled
        }
        let user = email.isEmpty || email.count > 254 ? nil : try await store.user(email: email)
        let matches = try await checker.verify(String(password.prefix(128)), hash: user?.passwordHash)
        guard matches, let user, user.disabledAt == nil else {
            try await auditFailure("wrong_credentials", address: address, now: now)
            DomainMetrics.login(provider: "password", outcome: "failure")
            return .refused
        }
        try await throttle.recordSuccess(.account(email))
        try await throttle.release(.address(address))
        return .accepted(user)
    }

    private func auditFailure(_ reason: String, address: String, now: Date) async throws {
        try await store.append(AuditEvent(occurredAt: now, action: .loginFailed, outcome: "failure", source: "password-login", details: ["reason": reason, "client_address": address]))
    }
}
