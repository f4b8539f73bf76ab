/// What the app tells the user, with a stable id (the server's `message_id` where there is one)
/// and the text in Bokmål and English (DESIGN.md, "Messages users must see").
public enum AuthMessage: String, Sendable, Hashable, CaseIterable {
    case bankIDCancelled = "bankid_cancelled"
    case vippsCancelled = "vipps_cancelled"
    case bankIDUnavailable = "bankid_unavailable"
    case vippsUnavailable = "vipps_unavailable"
    case loginFailed = "login_failed"
    case notRegistered = "not_registered"
    case sessionExpired = "session_expired"
    case bankIDExpired = "bankid_expired"
    case reauthenticationRequired = "reauthentication_required"
    case biometricFailed = "biometric_failed"
    case tooManyBiometricFailures = "too_many_biometric_failures"
    case biometricLockedOut = "biometric_locked_out"
    case biometricEnrolmentChanged = "biometric_enrolment_changed"
    case biometricsNotSetUp = "biometrics_not_set_up"
    case biometricsNotAvailable = "biometrics_not_available"
    case faceIDEnabled = "face_id_enabled"
    case fingerprintEnabled = "fingerprint_enabled"
    case offline = "offline"

    /// The message for a server `message_id`; unknown ids get the generic failure.
    public init(serverID: String?) {
        self = serverID.flatMap(AuthMessage.init(rawValue:)) ?? .loginFailed
    }

    /// A cancellation is the user's own choice: no error dialog.
    public var isQuiet: Bool { self == .bankIDCancelled || self == .vippsCancelled }

    public func text(_ language: AppLanguage) -> String {
        switch self {
        case .bankIDCancelled: language.pick("BankID-innloggingen ble avbrutt", "BankID login was cancelled")
        case .vippsCancelled: language.pick("Vipps-innloggingen ble avbrutt", "Vipps login was cancelled")
        case .bankIDUnavailable:
            language.pick("BankID er midlertidig utilgjengelig. Prøv Vipps i stedet eller prøv igjen senere",
                          "BankID is temporarily unavailable. Try Vipps instead or retry later")
        case .vippsUnavailable:
            language.pick("Vipps er midlertidig utilgjengelig. Prøv BankID i stedet eller prøv igjen senere",
                          "Vipps is temporarily unavailable. Try BankID instead or retry later")
        case .loginFailed: language.pick("Innloggingen mislyktes – prøv igjen", "Login failed — please try again")
        case .notRegistered:
            language.pick("Organisasjonen din har ikke registrert deg ennå. Kontakt koordinatoren din.",
                          "Your organisation has not registered you yet. Contact your coordinator.")
        case .sessionExpired: language.pick("Økten din er utløpt – logg inn på nytt", "Your session has expired — please log in again")
        case .bankIDExpired:
            language.pick("BankID-innloggingen tok for lang tid og ble avbrutt. Prøv igjen.",
                          "The BankID login took too long and was stopped. Please try again.")
        case .reauthenticationRequired:
            language.pick("Det er lenge siden du logget inn med BankID eller Vipps. Logg inn på nytt.",
                          "It has been a while since you logged in with BankID or Vipps. Please log in again.")
        case .biometricFailed: language.pick("Vi kjente deg ikke igjen. Prøv igjen.", "We did not recognise you. Please try again.")
        case .tooManyBiometricFailures:
            language.pick("Biometrisk innlogging virket ikke. Bruk BankID eller Vipps.", "Biometric login did not work. Use BankID or Vipps.")
        case .biometricLockedOut:
            language.pick("Face ID eller fingeravtrykk er sperret etter for mange forsøk. Bruk BankID eller Vipps.",
                          "Face ID or fingerprint is locked after too many attempts. Use BankID or Vipps.")
        case .biometricEnrolmentChanged:
            language.pick("Ansikt eller fingeravtrykk er endret på enheten. Logg inn med BankID eller Vipps for å slå på biometrisk innlogging igjen.",
                          "The faces or fingerprints on this device have changed. Log in with BankID or Vipps to turn biometric login on again.")
        case .biometricsNotSetUp:
            language.pick("Face ID eller fingeravtrykk er ikke satt opp. Slå det på i innstillingene på enheten, eller bruk en annen innloggingsmåte.",
                          "Face ID or fingerprint is not set up. Turn it on in the device settings, or use another way to log in.")
        case .biometricsNotAvailable:
            language.pick("Biometrisk innlogging er ikke tilgjengelig på denne enheten. Bruk BankID, Vipps eller e-post og passord.",
                          "Biometric login is not available on this device. Use BankID, Vipps or email and password.")
        case .faceIDEnabled: language.pick("Face ID er slått på", "Face ID enabled")
        case .fingerprintEnabled: language.pick("Fingeravtrykk er slått på", "Fingerprint enabled")
        case .offline: language.pick("Du er frakoblet. Det du registrerer, sendes når nettet er tilbake.", "You are offline. What you register is sent when the network is back.")
        }
    }
}

/// Norwegian Bokmål or English.
public enum AppLanguage: String, Sendable, Hashable, CaseIterable {
    case nb, en

    public func pick(_ bokmal: String, _ english: String) -> String { self == .nb ? bokmal : english }
}
