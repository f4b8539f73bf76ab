import Foundation
import PortvaktDomain
import PortvaktCore
import PortvaktModels
import PortvaktProtocol
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
        guard matches, let user else {
            try await auditFailure("wrong_credentials", address: address, now: now)
            DomainMetrics.login(provider: "password", outcome: "failure")
            return .refused
        }
        // A disabled account with the right password is refused where every login ends
        // (LoginCompletion), with the words every way in uses (issue 45 item 5); a wrong one
        // says nothing about the account. Its attempts stay counted: nothing is reset.
        if user.disabledAt != nil { return .accepted(user) }
        try await throttle.recordSuccess(.account(email))
        try await throttle.release(.address(address))
        return .accepted(user)
    }

    /// S11.3: the signed-in user enters their password again for a step-up. It shares the
    /// account's throttle with the login form, so a stolen session gets no more guesses.
    func confirm(userID: String, password: String, for action: StepUpAction, address: String) async throws -> StepUpOutcome {
        guard let user = try await store.user(id: userID), user.disabledAt == nil else { return .refused }
        guard let email = user.email?.lowercased(), user.passwordHash != nil else { return .noPassword }
        let now = self.now()
        let keys: [LoginThrottle.Key] = [.account(email), .address(address)]
        if try await throttle.reserve(keys, now: now) != nil {
            return .throttled
        }
        guard try await checker.verify(String(password.prefix(128)), hash: user.passwordHash) else {
            // The member's own event, so a stranger's guesses show in their security events.
            try await store.append(AuditEvent(
                occurredAt: now, action: .passwordStepUp, outcome: "failure", actorUserID: UUID(uuidString: user.id),
                subjectType: "user", subjectID: user.id, source: "password-step-up",
                details: ["action": action.rawValue, "reason": "wrong_password", "client_address": address]
            ))
            return .refused
        }
        try await throttle.recordSuccess(.account(email))
        try await throttle.release(.address(address))
        try await store.recordPasswordProof(userID: user.id, now: now)
        try await store.append(AuditEvent(
            occurredAt: now, action: .passwordStepUp, outcome: "success", actorUserID: UUID(uuidString: user.id),
            subjectType: "user", subjectID: user.id, source: "password-step-up", details: ["action": action.rawValue]
        ))
        return .confirmed
    }

    enum StepUpOutcome {
        case confirmed
        case refused
        case noPassword
        case throttled
    }

    private func auditFailure(_ reason: String, address: String, now: Date) async throws {
        try await store.append(AuditEvent(occurredAt: now, action: .loginFailed, outcome: "failure", source: "password-login", details: ["reason": reason, "client_address": address]))
    }
}
