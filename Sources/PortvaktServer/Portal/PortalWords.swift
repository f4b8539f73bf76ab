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
        if values.contains("mfa"), values.contains("hwk") || values.contains("swk") { return language.pick("Passnøkkel", "Passkey") }
        if values.contains("hwk") {
            return values.contains("fpt")
                ? language.pick("Fingeravtrykk på telefonen", "Fingerprint on the phone")
                : language.pick("Ansikt på telefonen", "Face on the phone")
        }
        if values.contains("BID") { return "BankID" }
        if values.contains("pwd") { return language.pick("E-post og passord", "Email and password") }
        return "Vipps"
    }

    static func biometric(_ kind: String, _ language: Language) -> String {
        kind == "fingerprint" ? language.pick("Fingeravtrykk", "Fingerprint") : language.pick("Ansikt", "Face")
    }

    static func client(_ id: String, _ language: Language) -> String {
        switch id {
        case "no.portvakt.app": language.pick("Appen", "The app")
        case "portvakt-cli": language.pick("Kommandolinjen (portvakt)", "The command line (portvakt)")
        case PortalClient.id: language.pick("Nettleser (Min konto)", "Browser (My account)")
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
            case "bankid-login": language.pick("Logget inn med BankID", "Signed in with BankID")
            case "vipps-login": language.pick("Logget inn med Vipps", "Signed in with Vipps")
            case "passkey-login": language.pick("Logget inn med passnøkkel", "Signed in with a passkey")
            default: language.pick("Logget inn med e-post og passord", "Signed in with email and password")
            }
        case "device.unlock": language.pick("Låste opp appen med ansikt eller fingeravtrykk", "Unlocked the app with face or fingerprint")
        case "device.registered": language.pick("La til en telefon for biometrisk innlogging", "Added a phone for biometric sign-in")
        case "device.raised": language.pick("Bekreftet en telefon med BankID eller Vipps", "Confirmed a phone with BankID or Vipps")
        case "device.revoked": language.pick("Fjernet en telefon", "Removed a phone")
        case "device.assertion_failed": language.pick("Mislykket opplåsing med telefonen", "Failed unlock with the phone")
        case "device.step_up": language.pick("Bekreftet med ansikt eller fingeravtrykk", "Confirmed with face or fingerprint")
        case "account.data_exported": language.pick("Lastet ned dataene dine", "Downloaded your data")
        case "passkey.registered": language.pick("La til en passnøkkel", "Added a passkey")
        case "passkey.removed": language.pick("Fjernet en passnøkkel", "Removed a passkey")
        case "passkey.refused": language.pick("En passnøkkel ble avvist", "A passkey was refused")
        case "membership.granted":
            switch outcome {
            case "coordinator": language.pick("Et medlemssystem registrerte deg som koordinator", "A member system registered you as coordinator")
            case "org_admin": language.pick("Et medlemssystem registrerte deg som administrator", "A member system registered you as administrator")
            default: language.pick("Et medlemssystem registrerte deg som likeperson", "A member system registered you as peer mentor")
            }
        case "user.password_step_up":
            outcome == "success" ? language.pick("Bekreftet med passord", "Confirmed with password")
                : language.pick("Feil passord ved bekreftelse", "Wrong password when confirming")
        default: action
        }
    }
}
