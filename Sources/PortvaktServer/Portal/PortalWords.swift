import PortvaktCore
import PortvaktModels

/// Ids the portal shows in words: roles, sign-in methods, device kinds, clients, security events.
enum PortalWords {
    static func role(_ role: Role, organisation: String, _ language: Language) -> String {
        RoleWords.role(role.rawValue, organisation: organisation, language)
    }

    /// How a session was opened, from its `amr` (RFC 8176).
    static func method(amr: String, _ language: Language) -> String {
        let values = Set(amr.split(separator: " ").map(String.init))
        if values.contains("mfa"), values.contains("hwk") || values.contains("swk") { return PortalPhrase.passkey.text(language) }
        if values.contains("hwk") {
            return values.contains("fpt")
                ? PortalPhrase.fingerprintOnThePhone.text(language)
                : PortalPhrase.faceOnThePhone.text(language)
        }
        if values.contains("BID") { return "BankID" }
        if values.contains("pwd") { return PortalPhrase.emailAndPassword.text(language) }
        return "Vipps"
    }

    static func biometric(_ kind: String, _ language: Language) -> String {
        kind == "fingerprint" ? PortalPhrase.fingerprint.text(language) : PortalPhrase.face.text(language)
    }

    static func client(_ id: String, _ language: Language) -> String {
        switch id {
        case "no.portvakt.app": PortalPhrase.theApp.text(language)
        case "portvakt-cli": PortalPhrase.theCommandLinePortvakt.text(language)
        case PortalClient.id: PortalPhrase.browserMyAccount.text(language)
        default: id
        }
    }

    /// The security events a person sees of their own, in words.
    static let eventActions = [
        "login.succeeded", "device.unlock", "device.registered", "device.raised", "device.revoked", "device.assertion_failed", "device.step_up", "user.password_step_up", "account.data_exported",
        "passkey.registered", "passkey.removed", "passkey.refused", "membership.granted",
    ]

    static func event(_ action: String, outcome: String, source: String?, _ language: Language) -> String {
        switch action {
        case "login.succeeded":
            switch source {
            case "bankid-login": PortalPhrase.signedInWithBankid.text(language)
            case "vipps-login": PortalPhrase.signedInWithVipps.text(language)
            case "passkey-login": PortalPhrase.signedInWithAPasskey.text(language)
            default: PortalPhrase.signedInWithEmailAndPassword.text(language)
            }
        case "device.unlock": PortalPhrase.unlockedTheAppWithFaceOr.text(language)
        case "device.registered": PortalPhrase.addedAPhoneForBiometricSign.text(language)
        case "device.raised": PortalPhrase.confirmedAPhoneWithBankidOr.text(language)
        case "device.revoked": PortalPhrase.removedAPhone.text(language)
        case "device.assertion_failed": PortalPhrase.failedUnlockWithThePhone.text(language)
        case "device.step_up": PortalPhrase.confirmedWithFaceOrFingerprint.text(language)
        case "account.data_exported": PortalPhrase.downloadedYourData.text(language)
        case "passkey.registered": PortalPhrase.addedAPasskey.text(language)
        case "passkey.removed": PortalPhrase.removedAPasskey.text(language)
        case "passkey.refused": PortalPhrase.aPasskeyWasRefused.text(language)
        case "membership.granted":
            switch outcome {
            case "coordinator": PortalPhrase.aMemberSystemRegisteredYouAs.text(language)
            case "org_admin": PortalPhrase.aMemberSystemRegisteredYouAs2.text(language)
            default: PortalPhrase.aMemberSystemRegisteredYouAs3.text(language)
            }
        case "user.password_step_up":
            outcome == "success" ? PortalPhrase.confirmedWithPassword.text(language)
                : PortalPhrase.wrongPasswordWhenConfirming.text(language)
        default: action
        }
    }
}
