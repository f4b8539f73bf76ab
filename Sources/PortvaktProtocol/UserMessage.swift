/// The messages Portvakt shows users or hands to the app, each with a stable id the app can
/// switch on and its text in the catalog (`message.<id>`). docs/login-flows.md ("What the app is told") lists them
/// with the `error` code they travel with.
public enum UserMessage: String, Sendable, CaseIterable, Codable, CatalogKeys {
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

    public static var catalog: TextCatalog { ProtocolCatalog.texts }
    public static let namespace = "message"
}
