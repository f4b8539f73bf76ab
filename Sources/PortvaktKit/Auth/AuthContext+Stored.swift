import Foundation
import PortvaktProtocol

extension AuthContext {
    /// What the device knows at launch, from the secure storage: a session, a registered device
    /// key, failed biometric attempts, when the session and the device trust end, the method used
    /// last (S8, S16). An item that cannot be read counts as absent, except the device key:
    /// enrolled is decided by the registered device, because the key's handle is readable only
    /// while the phone is unlocked; a key really gone is found at the prompt (invalidated, the
    /// session goes with it), never taken for "no biometrics", which would resume silently. For
    /// the same reason a registered device that cannot be read now counts as enrolled.
    public static func stored(
        in storage: any SecureStorage, tokens: TokenManager, biometry: BiometryAvailability, online: Bool, at now: Date
    ) async -> AuthContext {
        func string(_ key: SecureStorageKey) async -> String? { (try? await storage.readString(key)) ?? nil }
        func date(_ key: SecureStorageKey) async -> Date? { (try? await storage.readDate(key)) ?? nil }
        let enrolled: Bool
        do { enrolled = try await storage.read(.deviceID) != nil } catch { enrolled = true }
        var context = AuthContext(
            biometry: biometry, hasSession: (try? await tokens.hasStoredSession()) ?? false, deviceKeyEnrolled: enrolled, online: online,
            biometricFailures: max(0, await string(.biometricFailures).flatMap { Int($0) } ?? 0)
        )
        context.sessionEndsAt = await date(.sessionEndsAt)
        context.deviceTrustEndsAt = await date(.deviceTrustEndsAt)
        context.lastMethod = await string(.lastLoginMethod).flatMap(LoginMethod.init(rawValue:))
        context.deviceKeyIsPasswordLevel = await string(.deviceAssurance) == DeviceAssurance.password.rawValue
        context.launchedAt = now
        return context
    }
}
