import PortvaktCore

/// Texts of sandbox_words by key (`sandbox_words.<key>` in the catalogs).
enum SandboxPhrase: String, CatalogKeys {
    case noActiveOrder = "no_active_order"
    case theOrderDoesNotExistHas = "the_order_does_not_exist_has"
    case orderNotFound = "order_not_found"
    case theAutostartTokenOrQrCode = "the_autostart_token_or_qr_code"
    case backToTheApp = "back_to_the_app"
    case identified = "identified"
    case youAreIdentifiedReturnToThe = "you_are_identified_return_to_the"
    case notCompleted = "not_completed"
    case theOrderEndedHint = "the_order_ended_hint"
    case unknownTestPerson = "unknown_test_person"
    case chooseOneOfTheTestPeople = "choose_one_of_the_test_people"
    case waiting = "waiting"
    case theOrderIsWaitingForYou = "the_order_is_waiting_for_you"
    case unknownClient = "unknown_client"
    case clientIdIsMissingOrNot = "client_id_is_missing_or_not"
    case invalidRedirectUri = "invalid_redirect_uri"
    case redirectUriIsMissingOrNot = "redirect_uri_is_missing_or_not"
    case actionMustBeApproveOrCancel = "action_must_be_approve_or_cancel"
    case chooseOneOfTheTestPeople2 = "choose_one_of_the_test_people_2"
    case notAMemberAnywhere = "not_a_member_anywhere"
    case peerMentor = "peer_mentor"
    case coordinator = "coordinator"
    case administrator = "administrator"

    static var catalog: TextCatalog { SandboxCatalog.texts }
    static let namespace = "sandbox_words"

    var placeholders: Set<String> {
        switch self {
        case .theOrderEndedHint: ["hint"]
        case .clientIdIsMissingOrNot: ["display_name"]
        default: []
        }
    }
}
