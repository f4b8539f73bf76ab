/// The messages Portvakt shows users or hands to the app, each with a stable id the app can
/// switch on and the text in Bokmål and English. docs/login-flows.md ("What the app is told") lists them
/// with the `error` code they travel with.
public enum UserMessage: String, Sendable, CaseIterable, Codable {
    case bankIDCancelled = "bankid_cancelled"
    case vippsCancelled = "vipps_cancelled"
    case bankIDUnavailable = "bankid_unavailable"
    case vippsUnavailable = "vipps_unavailable"
    case loginFailed = "login_failed"
    case notRegistered = "not_registered"
    case membershipClaimEnded = "membership_claim_ended"
    /// An operator disabled the account (issue 45): every way in says this, and nothing else.
    case accountDisabled = "account_disabled"
    case sessionExpired = "session_expired"
    case wrongEmailOrPassword = "wrong_email_or_password"
    case wrongPassword = "wrong_password"
    case noPasswordSet = "no_password_set"
    case tooManyAttempts = "too_many_attempts"
    case invalidLoginRequest = "invalid_login_request"
    // The BankID order flow (BankIDHint maps the provider's hint codes to these).
    case bankIDStartApp = "bankid_start_app"
    case bankIDSearching = "bankid_searching"
    case bankIDSignInApp = "bankid_sign_in_app"
    case bankIDWaiting = "bankid_waiting"
    case bankIDExpired = "bankid_expired"
    case bankIDCertificateError = "bankid_certificate_error"
    case bankIDStartFailed = "bankid_start_failed"
    case bankIDOrderNotFound = "bankid_order_not_found"
    // Biometric unlock, step-up and the app's API.
    case reauthenticationRequired = "reauthentication_required"
    case deviceNotRecognised = "device_not_recognised"
    case biometricUnlockFailed = "biometric_unlock_failed"
    case recentLoginRequired = "recent_login_required"
    case freshLoginRequired = "fresh_login_required"
    case deviceLimitReached = "device_limit_reached"
    case stepUpRequired = "step_up_required"
    case notAllowed = "not_allowed"
    // Member sync.
    case personnummerNotRetrieved = "personnummer_not_retrieved"
    // Shown by the app (PortvaktKit) from what the device says; the server never sends these.
    case biometricFailed = "biometric_failed"
    case tooManyBiometricFailures = "too_many_biometric_failures"
    case biometricLockedOut = "biometric_locked_out"
    case biometricEnrolmentChanged = "biometric_enrolment_changed"
    case biometricsNotSetUp = "biometrics_not_set_up"
    case biometricsNotAvailable = "biometrics_not_available"
    case biometricsOffForThisApp = "biometrics_off_for_this_app"
    case passcodeNotSet = "passcode_not_set"
    case biometricsUnavailableNow = "biometrics_unavailable_now"
    case faceIDEnabled = "face_id_enabled"
    case fingerprintEnabled = "fingerprint_enabled"
    case offline = "offline"
    case notLoggedIn = "not_logged_in"
    case notFound = "not_found"
    case temporarilyUnavailable = "temporarily_unavailable"

    /// The stable id sent as `message_id`.
    public var id: String { rawValue }

    /// The message for a server's `message_id`; an unknown or missing id gets the generic failure (S10.2).
    public init(serverID: String?) {
        self = serverID.flatMap(UserMessage.init(rawValue:)) ?? .loginFailed
    }

    /// Whether trying the same thing again can help (the app shows a retry button).
    public var isRetryable: Bool {
        switch self {
        case .loginFailed, .bankIDUnavailable, .vippsUnavailable, .tooManyAttempts, .bankIDExpired, .bankIDStartFailed, .bankIDOrderNotFound,
             .biometricUnlockFailed, .temporarilyUnavailable, .biometricsUnavailableNow: true
        default: false
        }
    }

    /// A cancellation is the user's own choice: the app returns to the login screen quietly,
    /// without an error dialog.
    public var isQuiet: Bool { self == .bankIDCancelled || self == .vippsCancelled }

    public func text(_ language: Language) -> String {
        switch self {
        case .bankIDCancelled:
            language.pick("BankID-innloggingen ble avbrutt", "BankID login was cancelled")
        case .vippsCancelled:
            language.pick("Vipps-innloggingen ble avbrutt", "Vipps login was cancelled")
        case .bankIDUnavailable:
            language.pick(
                "BankID er midlertidig utilgjengelig. Prøv Vipps i stedet eller prøv igjen senere",
                "BankID is temporarily unavailable. Try Vipps instead or retry later")
        case .vippsUnavailable:
            language.pick(
                "Vipps er midlertidig utilgjengelig. Prøv BankID i stedet eller prøv igjen senere",
                "Vipps is temporarily unavailable. Try BankID instead or retry later")
        case .loginFailed:
            language.pick("Innloggingen mislyktes – prøv igjen", "Login failed — please try again")
        case .notRegistered:
            language.pick(
                "Organisasjonen din har ikke registrert deg ennå. Kontakt koordinatoren din.",
                "Your organisation has not registered you yet. Contact your coordinator.")
        case .membershipClaimEnded:
            language.pick(
                "Vi kunne ikke bekrefte medlemskapet ditt. Logg inn på nytt for å prøve igjen, eller kontakt koordinatoren din.",
                "We could not confirm your membership. Log in again to try once more, or contact your coordinator.")
        case .accountDisabled:
            language.pick("Kontoen din er sperret. Kontakt koordinatoren din.", "Your account is disabled. Contact your coordinator.")
        case .sessionExpired:
            language.pick("Økten din er utløpt – logg inn på nytt", "Your session has expired — please log in again")
        case .wrongEmailOrPassword:
            language.pick("Feil e-postadresse eller passord", "Wrong email address or password")
        case .wrongPassword:
            language.pick("Feil passord. Prøv igjen.", "Wrong password. Please try again.")
        case .noPasswordSet:
            language.pick(
                "Kontoen din har ikke passord. Bekreft med Face ID eller fingeravtrykk, eller logg inn med BankID eller Vipps.",
                "Your account has no password. Confirm with Face ID or fingerprint, or log in with BankID or Vipps.")
        case .tooManyAttempts:
            language.pick(
                "For mange forsøk. Vent litt og prøv igjen, eller logg inn med BankID eller Vipps.",
                "Too many attempts. Wait a little and try again, or log in with BankID or Vipps.")
        case .invalidLoginRequest:
            language.pick(
                "Innloggingen kunne ikke startes. Gå tilbake til appen og prøv igjen.",
                "The login could not be started. Go back to the app and try again.")
        case .bankIDStartApp:
            language.pick("Start BankID-appen, eller skann QR-koden med den.", "Start your BankID app, or scan the QR code with it.")
        case .bankIDSearching:
            language.pick("Søker etter BankID, det kan ta litt tid …", "Searching for BankID, it may take a little while…")
        case .bankIDSignInApp:
            language.pick(
                "Skriv inn sikkerhetskoden din i BankID-appen og velg Identifiser.",
                "Enter your security code in the BankID app and select Identify.")
        case .bankIDWaiting:
            language.pick("Venter på BankID …", "Waiting for BankID…")
        case .bankIDExpired:
            language.pick(
                "BankID-innloggingen tok for lang tid og ble avbrutt. Prøv igjen.",
                "The BankID login took too long and was stopped. Please try again.")
        case .bankIDCertificateError:
            language.pick(
                "BankID-en du prøver å bruke er sperret eller for gammel. Bruk en annen BankID, eller bestill en ny hos banken din.",
                "The BankID you are trying to use is blocked or too old. Use another BankID, or get a new one from your bank.")
        case .bankIDStartFailed:
            language.pick(
                "BankID-appen startet ikke. Sjekk at den er installert, og prøv igjen – eller bruk Vipps.",
                "The BankID app did not start. Check that it is installed and try again, or use Vipps.")
        case .bankIDOrderNotFound:
            language.pick("Denne BankID-innloggingen finnes ikke lenger. Start på nytt.", "This BankID login no longer exists. Please start again.")
        case .reauthenticationRequired:
            language.pick(
                "Det er lenge siden du logget inn med BankID eller Vipps. Logg inn med BankID eller Vipps for å fortsette med Face ID eller fingeravtrykk.",
                "It has been a while since you logged in with BankID or Vipps. Log in with BankID or Vipps to keep using Face ID or fingerprint.")
        case .deviceNotRecognised:
            language.pick(
                "Biometrisk innlogging er ikke lenger slått på for denne enheten. Bruk BankID eller Vipps.",
                "Biometric login is no longer set up on this device. Use BankID or Vipps.")
        case .biometricUnlockFailed:
            language.pick(
                "Opplåsingen virket ikke. Prøv igjen, eller bruk BankID eller Vipps.",
                "Unlocking did not work. Try again, or use BankID or Vipps.")
        case .recentLoginRequired:
            language.pick(
                "Logg inn på nytt, eller bekreft med passordet ditt, før du slår på biometrisk innlogging.",
                "Log in again, or confirm with your password, before you turn on biometric login.")
        case .freshLoginRequired:
            language.pick(
                "Bekreft at det er deg: logg inn med BankID eller Vipps på nytt, og prøv igjen innen fem minutter.",
                "Confirm it is you: log in again with BankID or Vipps, then try again within five minutes.")
        case .deviceLimitReached:
            language.pick(
                "Du har biometrisk innlogging på for mange enheter. Fjern en av dem i innstillingene først.",
                "You have biometric login on too many devices. Remove one of them in settings first.")
        case .stepUpRequired:
            language.pick(
                "Bekreft med Face ID eller fingeravtrykk for å fortsette.",
                "Confirm with Face ID or fingerprint to continue.")
        case .notAllowed:
            language.pick("Du har ikke tilgang til dette.", "You do not have access to this.")
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
        case .biometricsOffForThisApp:
            language.pick("Face ID eller fingeravtrykk er slått av for denne appen. Slå det på i appens innstillinger, eller logg inn med BankID, Vipps eller e-post og passord.",
                          "Face ID or fingerprint is turned off for this app. Turn it on in the app's settings, or log in with BankID, Vipps or email and password.")
        case .passcodeNotSet:
            language.pick("Enheten har ingen kode. Sett en kode i innstillingene for å bruke Face ID eller fingeravtrykk, eller bruk BankID eller Vipps.",
                          "This device has no passcode. Set one in the device settings to use Face ID or fingerprint, or use BankID or Vipps.")
        case .biometricsUnavailableNow:
            language.pick("Face ID eller fingeravtrykk kunne ikke brukes akkurat nå. Prøv igjen.",
                          "Face ID or fingerprint could not be used just now. Please try again.")
        case .faceIDEnabled: language.pick("Face ID er slått på", "Face ID enabled")
        case .fingerprintEnabled: language.pick("Fingeravtrykk er slått på", "Fingerprint enabled")
        case .offline:
            language.pick("Du er frakoblet. Det du registrerer, sendes når nettet er tilbake.", "You are offline. What you register is sent when the network is back.")
        case .notLoggedIn:
            language.pick("Du er ikke logget inn. Logg inn med BankID, Vipps eller e-post og passord.",
                          "You are not logged in. Log in with BankID, Vipps or email and password.")
        case .notFound: language.pick("Vi fant det ikke.", "We could not find it.")
        case .temporarilyUnavailable:
            language.pick("Portvakt svarer ikke akkurat nå. Prøv igjen om litt.", "Portvakt cannot answer right now. Please try again in a moment.")
        case .personnummerNotRetrieved:
            language.pick(
                "Vi fikk ikke hentet fødselsnummeret ditt, så medlemsopplysningene dine ble ikke oppdatert. Innloggingen gikk bra.",
                "We could not retrieve your national identity number, so your member record was not updated. You are logged in.")
        }
    }
}
