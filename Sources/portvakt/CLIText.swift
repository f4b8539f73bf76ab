import PortvaktProtocol

/// Texts of cli by key (`cli.<key>` in the catalogs).
enum CLIText: String, CatalogKeys {
    case openThisAddressInABrowser = "open_this_address_in_a_browser"
    case weCouldNotFindYouIn = "we_could_not_find_you_in"
    case ifEmailIsOnAMembership = "if_email_is_on_a_membership"
    case codeFromTheEmail = "code_from_the_email"
    case wrongCodePleaseTryAgain = "wrong_code_please_try_again"
    case youCanCloseThisWindow = "you_can_close_this_window"
    case returnToTheTerminal = "return_to_the_terminal"
    case simulatedFingerprintReasonYEsN = "simulated_fingerprint_reason_y_es_n"
    case tryAgain = "try_again"
    case password = "password"
    case ctrlCCancels = "ctrl_c_cancels"
    case theDeviceWasRevoked = "the_device_was_revoked"
    case theActivityWasRegistered = "the_activity_was_registered"
    case savedOnThisDevicePortvaktSync = "saved_on_this_device_portvakt_sync"
    case email = "email"
    case othersActivitiesFromAnotherLoginWait = "others_activities_from_another_login_wait"
    case deletedDiscardedFromAnotherLogin = "deleted_discarded_from_another_login"
    case confirmWithYourPasswordPortvaktStep = "confirm_with_your_password_portvakt_step"
    case noContacts = "no_contacts"
    case theExpenseClaimWasSubmitted = "the_expense_claim_was_submitted"
    case waitingToBeSentQueued = "waiting_to_be_sent_queued"
    case loggedInAsName = "logged_in_as_name"
    case homeScreenHomeName = "home_screen_home_name"
    case waitingRegistrationsHaveNotBeenSent = "waiting_registrations_have_not_been_sent"
    case youAreLoggedOut = "you_are_logged_out"
    case portvaktCouldNotBeReachedSo = "portvakt_could_not_be_reached_so"
    case unlocked = "unlocked"
    case notUnlocked = "not_unlocked"
    case secondsLeft = "seconds_left"
    case sentRefusedWaiting = "sent_refused_waiting"

    static var catalog: TextCatalog { CLICatalog.texts }
    static let namespace = "cli"

    var placeholders: Set<String> {
        switch self {
        case .ifEmailIsOnAMembership: ["email"]
        case .simulatedFingerprintReasonYEsN: ["reason"]
        case .othersActivitiesFromAnotherLoginWait: ["others"]
        case .deletedDiscardedFromAnotherLogin: ["discarded"]
        case .confirmWithYourPasswordPortvaktStep: ["raw_value"]
        case .waitingToBeSentQueued: ["queued"]
        case .loggedInAsName: ["name"]
        case .homeScreenHomeName: ["home_name"]
        case .waitingRegistrationsHaveNotBeenSent: ["waiting"]
        case .secondsLeft: ["seconds"]
        case .sentRefusedWaiting: ["sent", "refused", "waiting"]
        default: []
        }
    }
}
