import Foundation
import Hummingbird
import PortvaktCore
import PortvaktProtocol
import PortvaktDomain
import PortvaktHTTP

/// `POST /v1/step-up`: the user's Bearer token and a device assertion for a `step-up` challenge
/// → a short-lived access token that also allows the challenge's action (`contacts.read`,
/// `expenses.submit`).
struct StepUpRoutes {
    let assertions: DeviceAssertionVerifier
    let devices: DeviceRegistry
    let tokens: TokenIssuer

    func register(on router: Router<PortvaktRequestContext>) {
        router.post("/v1/step-up") { request, context in
            let caller = try context.caller()
            let body = try await request.decodeJSON(StepUpRequest.self)
            let verified = try await assertions.verify(body.assertion, purpose: .stepUp, address: context.clientAddress)
            guard verified.user.id == caller.userID, let action = verified.action else {
                throw OAuthFailure.invalidGrant("The device belongs to another user.", message: .biometricUnlockFailed)
            }
            // What only BankID or Vipps may open, a device key does not (ActionPolicy).
            guard ActionPolicy.of(SensitiveAction(action)).stepUps.contains(.deviceKey) else { throw OAuthFailure.freshLoginRequired }
            try await devices.recordStepUp(by: verified.device, for: caller, action: action)
            return try Responses.json(try await tokens.stepUpToken(for: caller.session, action: action, biometric: verified.biometric))
        }
    }
}
