import Foundation
import PortvaktProtocol

/// What the app does after "unlock" or "step up": ask Portvakt for a challenge, let the device
/// key sign it (the biometric prompt), redeem it. Every result is an ``AuthEvent`` for the
/// machine, or a token.
public struct DeviceUnlocker: Sendable {
    public let client: PortvaktClient
    public let key: any DeviceKey
    public let deviceID: String
    /// The language of the biometric prompt's reason (``BiometricPromptReason``).
    public let language: Language

    public init(client: PortvaktClient, key: any DeviceKey, deviceID: String, language: Language) {
        self.client = client
        self.key = key
        self.deviceID = deviceID
        self.language = language
    }

    /// Unlock: a new session on success (stored in `tokens`). Without network, the key still
    /// checks the user locally and the cached session opens (S12.2).
    public func unlock(into tokens: TokenManager) async -> AuthEvent {
        let challenge: (challenge: String, audience: String)
        do {
            challenge = try await client.challenge(deviceID: deviceID, purpose: .unlock)
        } catch let error as PortvaktError {
            return error.status == 404 ? .unlockFailed(.invalidated) : .unlockRefused(error.message)
        } catch {
            do {
                _ = try await key.sign(Data(randomToken().utf8), prompt: .signing(.unlock, language: language))
                return .unlockSucceeded(offline: true)
            } catch {
                return .unlockFailed(error)
            }
        }
        let assertion: String
        do {
            assertion = try await signed(challenge, purpose: .unlock, action: nil)
        } catch let failure as BiometricFailure {
            return .unlockFailed(failure)
        } catch {
            return .unlockFailed(.failed)
        }
        do {
            try await tokens.signedIn(try await client.unlock(assertion: assertion))
            return .unlockSucceeded(offline: false)
        } catch let error as PortvaktError {
            return error.messageID == "device_not_recognised" ? .unlockFailed(.invalidated) : .unlockRefused(error.message)
        } catch {
            return .unlockSucceeded(offline: true)
        }
    }

    /// Step-up for `action`: the elevated token.
    public func stepUp(_ action: StepUpAction, accessToken: String) async throws -> ElevatedToken {
        let challenge = try await client.challenge(deviceID: deviceID, purpose: .stepUp, action: action, accessToken: accessToken)
        return try await client.stepUp(assertion: try await signed(challenge, purpose: .stepUp, action: action), accessToken: accessToken)
    }

    private func signed(_ challenge: (challenge: String, audience: String), purpose: DevicePurpose, action: StepUpAction?) async throws -> String {
        let assertion = DeviceAssertion(
            deviceID: deviceID, audience: challenge.audience, challenge: challenge.challenge, purpose: purpose, action: action?.rawValue, issuedAt: Date()
        )
        // The closure cannot await, so the bytes are signed first and handed in.
        let input = try assertion.signingInput()
        let signature = try await key.sign(Data(input.utf8), prompt: .signing(purpose, action: action, language: language))
        return try assertion.compact { _ in signature }
    }
}
