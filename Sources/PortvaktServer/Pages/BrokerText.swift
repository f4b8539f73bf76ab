import PortvaktCore
import PortvaktHTTP

/// Every text of the broker's own pages (the login's method choice, the password form, the other
/// device's QR code, dead ends), keys of the server catalog (`broker.<id>`). Templates name them as `t.<id>`.
enum BrokerText: String, PageTexts {
    case logIn = "log_in"
    case chooseHowToLogIn = "choose_how_to_log_in"
    case loginMethods = "login_methods"
    case logInBankID = "log_in_bankid"
    case bankIDOtherDeviceQR = "bankid_other_device_qr"
    case logInVipps = "log_in_vipps"
    case logInEmailPassword = "log_in_email_password"
    case emailAddress = "email_address"
    case password = "password"
    case chooseEIDInstead = "choose_eid_instead"
    case loginCannotContinue = "login_cannot_continue"
    case technicalReason = "technical_reason"
    case backToAppOr = "back_to_app_or"
    case goToPortvaktStart = "go_to_portvakt_start"
    case bankIDOtherDevice = "bankid_other_device"
    case otherDeviceStepOpen = "other_device_step_open"
    case otherDeviceStepScan = "other_device_step_scan"
    case otherDeviceStepFollow = "other_device_step_follow"
    case oneMinuteLeft = "one_minute_left"
    case timeLeft = "time_left"
    case qrWithoutScript = "qr_without_script"
    case identifiedContinue = "identified_continue"
    case cancel = "cancel"
    case chooseAnotherWay = "choose_another_way"
    case loggedOut = "logged_out"
    case youAreLoggedOut = "you_are_logged_out"
    case youCanCloseWindow = "you_can_close_window"
    case logInPasskey = "log_in_passkey"
    case passkeyIntro = "passkey_intro"
    case passkeyUse = "passkey_use"
    case passkeyWithoutScript = "passkey_without_script"
    case passkeyWaiting = "passkey_waiting"
    case passkeyCancelled = "passkey_cancelled"
    case passkeyUnsupported = "passkey_unsupported"
    case passkeyNotAccepted = "passkey_not_accepted"
    case passkeyUnknown = "passkey_unknown"
    case passkeyCopied = "passkey_copied"
    case passkeyExpired = "passkey_expired"
    case passkeyOrEmail = "passkey_or_email"
    case notForYou = "not_for_you"
    case notSignedOut = "not_signed_out"
    case signOutRefused = "sign_out_refused"
    case consentIntro = "consent_intro"
    case consentWho = "consent_who"
    case consentName = "consent_name"
    case consentEmail = "consent_email"
    case consentOrganisations = "consent_organisations"
    case consentRevocable = "consent_revocable"
    case consentAllow = "consent_allow"
    case consentDeny = "consent_deny"
    case consentExpired = "consent_expired"
    case signOutQuestion = "sign_out_question"
    case signOutExplained = "sign_out_explained"
    case signOutButton = "sign_out_button"
    case backToTheService = "back_to_the_service"

    static var catalog: TextCatalog { ServerCatalog.texts }
    static let namespace = "broker"

    /// "This service is for members of HLF" (names joined with "or").
    static func membersOnly(_ names: [String], language: Language) -> String {
        let joined = names.count > 1
            ? BrokerPhrase.either.text(language, ["first": names.dropLast().joined(separator: ", "), "last": names.last!]) : names.first ?? ""
        return BrokerPhrase.membersOnly.text(language, ["organisations": joined])
    }

    /// "Give Kurs access to your details?"
    static func consentHeading(_ name: String, language: Language) -> String {
        BrokerPhrase.consentHeading.text(language, ["service": name])
    }

    static func backToService(_ name: String?, language: Language) -> String {
        guard let name else { return BrokerText.backToTheService.text(language) }
        return BrokerPhrase.backToService.text(language, ["service": name])
    }
}

/// The broker's texts that take a value.
enum BrokerPhrase: String, CatalogKeys {
    case membersOnly = "members_only"
    case either = "either"
    case consentHeading = "consent_heading"
    case backToService = "back_to_service"

    static var catalog: TextCatalog { ServerCatalog.texts }
    static let namespace = "broker"

    var placeholders: Set<String> {
        switch self {
        case .membersOnly: ["organisations"]
        case .either: ["first", "last"]
        case .consentHeading, .backToService: ["service"]
        }
    }
}
