import Foundation
import PortvaktProtocol

/// How a person logs in the first time, or after a fallback.
public enum LoginMethod: String, Sendable, Hashable, CaseIterable {
    /// BankID in the in-app browser (OIDC through Portvakt).
    case bankID = "bankid"
    /// Vipps in the in-app browser.
    case vipps
    /// BankID started by the server: the BankID app on this device, or a QR code for another.
    case bankIDOrder = "bankid-order"
    /// Email and password, the fallback that is always there.
    case password

    /// The quiet message of a user's own cancellation.
    var cancelledMessage: UserMessage { self == .vipps ? .vippsCancelled : .bankIDCancelled }

    /// What the user is told when the provider (or Portvakt on the way to it) cannot be reached.
    public var unavailableMessage: UserMessage { self == .vipps ? .vippsUnavailable : .bankIDUnavailable }
}

extension BiometricKind {
    var enabledMessage: UserMessage { self == .face ? .faceIDEnabled : .fingerprintEnabled }
}

/// What the device's biometrics can do right now.
public enum BiometryAvailability: Sendable, Hashable {
    case available(BiometricKind)
    /// The hardware is there but no face or finger is enrolled (or biometrics are off).
    case notEnrolled
    /// The device has no passcode, and biometrics need one.
    case passcodeNotSet
    /// No biometric hardware.
    case notAvailable
    /// The hardware is there, but the person turned Face ID off for this app (its settings).
    case offForThisApp
    /// Locked by the OS after too many attempts.
    case lockedOut

    /// Whether a biometric prompt can be shown now.
    public var isUsable: Bool {
        if case .available = self { true } else { false }
    }
}

/// Why the biometric-protected key did not sign.
public enum BiometricFailure: Error, Sendable, Hashable {
    /// The user cancelled the prompt.
    case cancelled
    /// The user chose the prompt's other way (``BiometricPromptReason/fallbackTitle(_:language:)``):
    /// BankID or Vipps at unlock, the password at a step-up.
    case fallbackChosen
    /// Not recognised (one attempt).
    case failed
    case lockout
    /// The enrolment changed (a new face or finger): the key is gone for good.
    case invalidated
    case notEnrolled
    /// The device has no passcode (it was turned off): biometrics cannot be used until it is set.
    case passcodeNotSet
    case notAvailable
    /// The key could not be read just now (a locked device, a launch in the background): nothing
    /// is lost, and the next try may work. Not counted as a miss.
    case unavailableNow
}

/// What the device knows when the app starts, and learns on the way.
public struct AuthContext: Sendable, Hashable {
    public var biometry: BiometryAvailability
    /// A refresh token is stored.
    public var hasSession: Bool
    /// A device key is registered and stored.
    public var deviceKeyEnrolled: Bool
    public var online: Bool
    /// The enrolment offer was shown in this app session (it is not shown twice).
    public var offeredEnrolment = false
    /// Consecutive failed biometric attempts on the unlock screen, across launches (S16.2: the
    /// app stores the count, ``AuthEffect/storeBiometricFailures(_:)``, and starts with it).
    public var biometricFailures = 0
    /// How long the app may stay in the background before it asks for biometrics again (S16.1;
    /// five minutes unless the app configures another time).
    public var lockAfter: TimeInterval = AuthContext.defaultLockAfter
    /// When the app went to the background, on a clock that keeps counting while the device
    /// sleeps and that no one can set back; nil while in front.
    public var backgroundedAt: ContinuousClock.Instant?
    /// The app came back after ``lockAfter`` while an unlock was on its way: its result does
    /// not open home without a new check.
    public var lockPending = false
    /// When the stored session ends (S16.3): a launch after it goes to the method selection
    /// before any prompt.
    public var sessionEndsAt: Date?
    /// When the device keys stop unlocking (S16.3): the same, for an enrolled device.
    public var deviceTrustEndsAt: Date?
    /// The time of the launch (or of the last return to the front), from the platform's clock,
    /// for the two checks above.
    public var launchedAt: Date?
    /// The login method used last: first on the method selection, and what "Try again" repeats.
    public var lastMethod: LoginMethod?
    /// The method of the login under way or just failed: what "Try again" repeats.
    public var attemptedMethod: LoginMethod?
    /// A notice that arrived during the enrolment offer, shown on the home screen after it.
    public var pendingNotice: UserMessage?
    /// The settings ask "Turn off biometric login?" (S7.2): nothing is deleted before the answer.
    public var confirmingBiometricsOff = false
    /// The ways in the server offers (its discovery's `portvakt_login_methods`): the method
    /// selection shows only these. Every method until the server has said.
    public var offeredMethods = Set(LoginMethod.allCases)
    /// The device key was enrolled after a password login (`DeviceAssurance.password`): a
    /// BankID or Vipps login raises it to their level.
    public var deviceKeyIsPasswordLevel = false
    /// A login chosen at ``AuthScreen/enrolmentConfirmation(passwordFirst:message:)`` enrols the key once
    /// it completes, and returns home (not to the method selection) when it does not.
    public var enrolsAfterLogin = false
    /// The password may confirm the enrolment asked for: not in a session a device unlocked,
    /// which the server never lets enrol (a new login is the way).
    public var enrolmentPasswordAccepted = true
    /// "Set up again" (S7.4): the key in place goes only once the new one may be made, so a
    /// confirmation asked for first leaves it working.
    public var replacingDeviceKey = false

    public static let defaultLockAfter: TimeInterval = 5 * 60

    public init(biometry: BiometryAvailability, hasSession: Bool, deviceKeyEnrolled: Bool, online: Bool, biometricFailures: Int = 0) {
        self.biometry = biometry
        self.hasSession = hasSession
        self.deviceKeyEnrolled = deviceKeyEnrolled
        self.online = online
        self.biometricFailures = biometricFailures
    }
}

/// The screen the app shows.
public enum AuthScreen: Sendable, Hashable {
    /// Deciding what to show (a silent refresh may be running).
    case launching
    /// BankID, Vipps, password; with a message when one is due.
    case methodSelection(UserMessage?)
    /// The in-app browser is open at the authorization URL.
    case browser(LoginMethod)
    case bankIDOrder(BankIDOrderProgress)
    /// The code is being exchanged for tokens.
    case completingLogin
    /// "Enable Face ID?" after a first login or a fallback login; `nil` kind: biometrics are not
    /// set up in the OS, so the offer points to the device settings.
    case enrolmentOffer(BiometricKind?)
    case enrolling
    /// Turning biometrics on after the login's few minutes (S7.3): the server wants the password
    /// again (a password-level key) or a new BankID or Vipps login, asked before any prompt.
    /// `passwordFirst`: the session began with the password; `message`: why the last try did not
    /// do (a wrong password).
    case enrolmentConfirmation(passwordFirst: Bool, message: UserMessage?)
    /// The unlock screen (the prompt runs while `unlocking`).
    case unlock(UserMessage?)
    case unlocking
    /// Biometrics cannot be used now: a friendly message and a prominent "Use BankID or Vipps".
    case biometricFallback(UserMessage)
    /// The role's home screen; a message such as "Face ID enabled" may be shown once.
    case home(UserMessage?)
}

/// The BankID order while it runs.
public struct BankIDOrderProgress: Sendable, Hashable {
    /// When the server started the order; nil while the start is on its way.
    public var startedAt: Date?
    /// The BankID app did not open: show the QR code for another device.
    public var showsQRCode = false
    /// The latest status text from `collect`.
    public var message: String?
    /// What the current frame of the animated QR code carries (it changes every second), while
    /// the QR code is shown (S3.5); ``ScreenModel/qrCode`` encodes it.
    public var qrData: String?

    public init(startedAt: Date? = nil) {
        self.startedAt = startedAt
    }
}

extension AuthEvent {
    /// The person starts over: what an earlier start's effects bring back afterwards belongs to
    /// an abandoned attempt.
    public var startsAnew: Bool {
        switch self {
        case .launched, .methodChosen, .orderResumed, .cancelTapped, .useOtherMethod, .logout: true
        default: false
        }
    }
}

/// What happened: the user's actions, platform answers and server answers.
public enum AuthEvent: Sendable, Hashable {
    case launched(AuthContext)
    case methodChosen(LoginMethod)
    /// The in-app browser came back with a code, a cancellation or an error message id.
    case browserReturnedCode
    case browserCancelled
    case browserFailed(UserMessage)
    /// The code was exchanged and the tokens stored.
    case loginCompleted
    case loginFailed(UserMessage)
    case orderStarted(launchURL: URL, at: Date)
    /// An order started before the app was ended is collected again (S3.3), from its start.
    case orderResumed(startedAt: Date)
    case bankIDAppOpened(Bool)
    case orderPending(String)
    case orderCompleted
    case orderFailed(UserMessage)
    case tick(Date)
    case cancelTapped
    case enrolmentAccepted
    case enrolmentDeclined
    case enrolmentFinished(BiometricFailure?)
    /// The server refused the new device key (`recent_login_required`, `device_limit_reached`).
    case enrolmentRefused(UserMessage)
    /// The login is too old to enrol without confirming it (found before the biometric prompt);
    /// `passwordAccepted`: the password may confirm it (not after a device unlock).
    case enrolmentNeedsConfirmation(passwordAccepted: Bool)
    /// The password was typed at the confirmation (the driver holds it, ``AuthDriver/confirmEnrolment(password:)``).
    case enrolmentPasswordSubmitted
    /// The server did not take the password (wrong, none set, too many tries): asked again.
    case enrolmentConfirmationRefused(UserMessage)
    /// The unlock attempt: the key signed and the server opened a session (or, offline, the
    /// cached session was unlocked), or it failed.
    case unlockSucceeded(offline: Bool)
    case unlockFailed(BiometricFailure)
    /// The server refused the unlock: the session or the device trust is over.
    case unlockRefused(UserMessage)
    /// The unlock found no registered device: the launch could not read the registration and
    /// assumed one. The session resumes as for a member without a key.
    case deviceNotRegistered
    case retryUnlock
    case useOtherMethod
    /// A step-up found the device key gone (a face or finger added, S6.2): as at the unlock, the
    /// session goes with the key.
    case stepUpKeyInvalidated
    case silentRefreshSucceeded
    /// The silent refresh could not reach the server: the cached session opens offline.
    case silentRefreshUnavailable
    case settingsEnableBiometrics
    /// "Turn off" in the settings: asks for confirmation first (S7.2), nothing is deleted yet.
    case settingsDisableRequested
    /// The confirmation's "Turn off": the key and the stored session go.
    case settingsDisableBiometrics
    /// The confirmation's "Cancel".
    case settingsDisableCancelled
    case settingsReEnrol
    /// A refresh answered `invalid_grant`: the session is over.
    case sessionExpired
    case logout
    case networkChanged(online: Bool)
    /// The app went to the background (the platform's scene phase), at this instant of
    /// `ContinuousClock`.
    case enteredBackground(ContinuousClock.Instant)
    /// The app came back to the front, at this instant, with the biometrics the device has now
    /// (the person may have turned them off, or the sensor locked, while away), and the
    /// platform's wall-clock time, for a session or device trust that ended while away (S16.3).
    case returnedToForeground(ContinuousClock.Instant, biometry: BiometryAvailability, at: Date? = nil)
    /// The order's QR code has a new frame (every second while it is shown; S3.5).
    case qrFrameArrived(String)
    /// The server has something to tell once (`/v1/me`'s notices), such as a personnummer it
    /// could not retrieve (S9.5).
    case noticeArrived(UserMessage)
}

/// What the app must do; the platform layer carries it out and reports back with events.
public enum AuthEffect: Sendable, Hashable {
    /// Make a PKCE verifier, store it securely, then open the in-app browser for the method.
    case openBrowser(LoginMethod)
    /// Exchange the code (with the stored verifier), store the tokens, delete the verifier.
    case exchangeCode
    /// Delete the stored PKCE verifier.
    case clearVerifier
    case startBankIDOrder
    /// Store the order's session id under `bankid_session_ref_v1`.
    case storeBankIDSessionRef
    case clearBankIDSessionRef
    case openBankIDApp(URL)
    case pollBankIDOrder
    case stopPollingBankIDOrder
    case cancelBankIDOrder
    /// Sign a server challenge with the device key (this shows the biometric prompt), then redeem it.
    case unlockWithDeviceKey
    case refreshSilently
    /// Create a biometric-protected key (prompt), register it with the server.
    case enrolDeviceKey
    /// Raise the password-level device key after this BankID or Vipps login.
    case raiseDeviceKey
    case deleteDeviceKey
    /// Delete tokens and the stored session.
    case clearSession
    /// Delete the stored session but keep this run's tokens: the next launch shows the method
    /// selection (biometrics turned off in settings).
    case forgetStoredSession
    case syncOfflineQueue
    /// Store the count of consecutive failed biometric attempts (0: delete it), so that closing
    /// the app does not start it over (S16.2).
    case storeBiometricFailures(Int)
    /// Store the login method just chosen (S16.3: shown first next time).
    case storeLastMethod(LoginMethod)
    /// Ask the server for what it tells once after a login (`GET /v1/me`'s notices).
    case fetchNotices
}
