import Foundation
import Hummingbird
import PortvaktCore
import PortvaktProtocol
import PortvaktDomain
import PortvaktHTTP

/// `POST /v1/step-up`: the user's access token and a device assertion for a `step-up` challenge
/// → a short-lived access token that also allows the challenge's action (`contacts.read`,
/// `expenses.submit`). `POST /v1/step-up/password`: the same for the account's password,
/// entered again, where the action's policy accepts it (S11.3; `device.enrol`: a password-level
/// device key after the login's few minutes).
struct StepUpRoutes {
    let assertions: DeviceAssertionVerifier
    let devices: DeviceRegistry
    let passwords: PasswordLogin
    let tokens: TokenIssuer

    func register(on routes: DeclaredRoutes) {
        routes.post("/v1/step-up", .member, surface: .json) { request, context in
            let caller = try context.caller()
            let body = try await request.decodeJSON(StepUpRequest.self)
            let verified = try await assertions.verify(body.assertion, purpose: .stepUp, address: context.clientAddress)
            guard verified.user.id == caller.userID, let action = verified.action else {
                throw OAuthFailure.invalidGrant("The device belongs to another user.", message: .biometricUnlockFailed)
            }
            // What only BankID or Vipps may open, a device key does not (ActionPolicy).
            guard ActionPolicy.of(SensitiveAction(action)).stepUps.contains(.deviceKey) else { throw OAuthFailure.freshLoginRequired }
            try await devices.recordStepUp(by: verified.device, for: caller, action: action)
            return try Responses.json(try await tokens.stepUpToken(for: caller.session, action: action, proof: .deviceKey(verified.biometric)))
        }
        routes.post("/v1/step-up/password", .member, surface: .json) { request, context in
            let caller = try context.caller()
            let body = try await request.decodeJSON(PasswordStepUpRequest.self)
            guard let action = StepUpAction(rawValue: body.action) else {
                throw OAuthFailure.invalidRequest("action must be contacts.read, expenses.submit or device.enrol.")
            }
            // What only BankID or Vipps may open, a password does not (ActionPolicy).
            let policy = ActionPolicy.of(SensitiveAction(action))
            guard policy.stepUps.contains(.freshPassword) else { throw OAuthFailure.freshLoginRequired }
            // Before the password is checked: an action a device's session may not take (a key's
            // enrolment) is not opened to it by the password either (ActionPolicy.deviceSessions).
            if !policy.deviceSessions, caller.session.deviceId != nil { throw DeviceRegistry.enrolmentNeedsLogin }
            switch try await passwords.confirm(userID: caller.userID, password: body.password, for: action, address: context.clientAddress) {
            case .confirmed:
                return try Responses.json(try await tokens.stepUpToken(for: caller.session, action: action, proof: .password))
            case .refused:
                // Not invalid_grant: to a client that means the session is over.
                throw OAuthFailure(error: .accessDenied, description: "The password is wrong.", message: .wrongPassword)
            case .noPassword:
                throw OAuthFailure(
                    error: .accessDenied,
                    description: action == .deviceEnrol
                        ? "The account has no password; log in again with BankID or Vipps." : "The account has no password; confirm with the device key or log in again.",
                    message: .noPasswordSet
                )
            case .throttled:
                throw OAuthFailure(error: .slowDown, description: "Too many attempts; wait and try again.", message: .tooManyAttempts, status: .tooManyRequests)
            }
        }
    }
}
