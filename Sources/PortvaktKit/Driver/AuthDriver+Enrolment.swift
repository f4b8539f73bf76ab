import Foundation
import PortvaktProtocol

extension AuthDriver {
    /// How long after its login a session may enrol a device key without confirming: the
    /// server's five minutes (`device.enrol`), less half a minute for the
    /// clocks of the phone and the server.
    static let enrolmentWindow: TimeInterval = 270

    /// The password typed at ``AuthScreen/enrolmentConfirmation(passwordFirst:message:)``: the
    /// enrolment goes on with it (a password-level key), the biometric prompt after the server
    /// has taken it.
    public func confirmEnrolment(password: String) async {
        guard case .enrolmentConfirmation = machine.screen, !password.isEmpty else { return }
        enrolmentPassword = password
        await send(.enrolmentPasswordSubmitted)
        enrolmentPassword = nil
    }

    /// What the member typed to tell this phone from their others (``DeviceName``), for the next
    /// enrolment: the enrolment offer's field, or the app's settings.
    public func nameThisDevice(_ name: String) {
        typedDeviceName = name
    }

    /// Whether the session's own login is recent enough to enrol without confirming, as its
    /// access token says (`acr`, `auth_time`): BankID, Vipps or the password; not a device
    /// unlock, a passkey or a step-up (Portvakt's own `urn:portvakt:acr:` values but a BankID order's).
    static func mayEnrolWithoutConfirmation(accessToken: String, at now: Date) -> Bool {
        guard let login = AccessTokenAuthentication(accessToken),
              !login.acr.hasPrefix("urn:portvakt:acr:") || login.acr == "urn:portvakt:acr:bankid-order"
        else { return false }
        return now.timeIntervalSince(login.authTime) < enrolmentWindow
    }

    /// Whether the password may confirm an enrolment in this session: not after a device unlock
    /// (the server lets no key enrol another, password or not).
    static func passwordMayConfirm(accessToken: String) -> Bool {
        !(AccessTokenAuthentication(accessToken)?.acr.hasPrefix("urn:portvakt:acr:device-biometric") ?? false)
    }

    func enrol() async -> AuthEvent {
        let s = services
        guard case .available(let kind) = machine.context.biometry else { return .enrolmentFinished(.notAvailable) }
        let password = enrolmentPassword
        enrolmentPassword = nil
        var access = ""
        do {
            access = try await s.tokens.accessToken()
            if let password {
                // Before the prompt: a wrong password costs no Face ID.
                do {
                    access = try await s.client.stepUp(.deviceEnrol, password: password, accessToken: access).token
                } catch let error as PortvaktError {
                    return .enrolmentConfirmationRefused(error.message)
                } catch is URLError {
                    return .enrolmentConfirmationRefused(.offline)
                }
            } else if !Self.mayEnrolWithoutConfirmation(accessToken: access, at: s.now()) {
                return .enrolmentNeedsConfirmation(passwordAccepted: Self.passwordMayConfirm(accessToken: access))
            }
            // Set up again (S7.4): the key in place works until the new one is registered.
            let previous = machine.context.replacingDeviceKey ? ((try? await s.storage.readString(.deviceID)) ?? nil) : nil
            let publicKey = try await s.deviceKey.create(prompt: .enrolment(s.language))
            let name = DeviceName.registered(typed: typedDeviceName, model: s.deviceName)
            let device = try await s.client.registerDevice(publicKey, name: name, platform: s.platform, biometry: kind, accessToken: access)
            try await s.storage.write(device.id, for: .deviceID)
            // This session is a login's (the confirmation saw to it), so the old key's revocation
            // ends none of it; when it cannot reach the server the old key can unlock nothing anyway.
            if let previous, previous != device.id { try? await s.client.revokeDevice(previous, accessToken: access) }
            try await store(device.assurance ?? .electronicID)
            return .enrolmentFinished(nil)
        } catch let failure as BiometricFailure {
            return .enrolmentFinished(failure)
        } catch let error as PortvaktError where error.message == .recentLoginRequired && password == nil && !machine.context.replacingDeviceKey {
            // The server's clock counted the login as older than this phone did: the key it
            // would not take goes, and the confirmation is asked for after all.
            await s.deviceKey.delete()
            return .enrolmentNeedsConfirmation(passwordAccepted: Self.passwordMayConfirm(accessToken: access))
        } catch let error as PortvaktError {
            return .enrolmentRefused(error.message)
        } catch {
            return .enrolmentRefused(.biometricUnlockFailed)
        }
    }

    /// After a BankID or Vipps login, the password-level key is raised to their level. When it
    /// cannot be now, the next such login tries again.
    func raiseDeviceKey() async {
        let s = services
        guard let id = try? await s.storage.readString(.deviceID), let access = try? await s.tokens.accessToken(),
              let device = try? await s.client.raiseDevice(id, accessToken: access)
        else { return }
        try? await store(device.assurance ?? .electronicID)
    }

    private func store(_ assurance: DeviceAssurance) async throws {
        if assurance == .password {
            try await services.storage.write(assurance.rawValue, for: .deviceAssurance)
        } else {
            try await services.storage.delete(.deviceAssurance)
        }
        machine.context.deviceKeyIsPasswordLevel = assurance == .password
    }
}

/// How the session of an access token began, from its claims (the token is the server's and
/// was just received from it; nothing here is trusted for more than a hint at the screen to show).
struct AccessTokenAuthentication {
    let acr: String
    let authTime: Date

    init?(_ jwt: String) {
        guard let claims = TokenManager.claims(of: jwt, as: Claims.self) else { return nil }
        acr = claims.acr
        authTime = Date(timeIntervalSince1970: TimeInterval(claims.authTime))
    }

    private struct Claims: Decodable {
        let acr: String
        let authTime: Int

        enum CodingKeys: String, CodingKey {
            case acr, authTime = "auth_time"
        }
    }
}
