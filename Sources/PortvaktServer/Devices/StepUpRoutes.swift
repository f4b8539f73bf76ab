import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP

/// `POST /v1/step-up`: the user's Bearer token and a device assertion for a `step-up` challenge
/// → a short-lived access token that also allows the challenge's action (`contacts.read`,
/// `expenses.submit`).
struct StepUpRoutes {
    let broker: Broker

    func register(on router: Router<PortvaktRequestContext>) {
        router.post("/v1/step-up") { request, context in
            let caller = try context.caller()
            let body = try await request.decodeJSON(StepUpRequest.self)
            let verified = try await DeviceAssertionVerifier(broker: broker).verify(body.assertion, purpose: .stepUp, address: context.clientAddress)
            let now = broker.now()
            guard verified.user.id == caller.userID, let action = verified.action else {
                throw OAuthFailure.invalidGrant("The device belongs to another user.", message: .biometricUnlockFailed)
            }
            // What only BankID or Vipps may open, a device key does not (ActionPolicy).
            guard ActionPolicy.of(SensitiveAction(action)).stepUps.contains(.deviceKey) else { throw DeviceTrust.freshLoginRequired }
            try await broker.store.markDeviceUsed(id: verified.device.id, now: now)
            try await broker.store.append(AuditEvent(
                occurredAt: now, action: "device.step_up", outcome: "success", actorUserID: UUID(uuidString: caller.userID),
                subjectType: "device", subjectID: verified.device.id, source: "device-step-up", details: ["action": action.rawValue]
            ))
            return try Responses.json(try await TokenIssuer(broker: broker).stepUpToken(for: caller.session, action: action, biometric: verified.biometric))
        }
    }
}

private struct StepUpRequest: Decodable {
    let assertion: String
}
