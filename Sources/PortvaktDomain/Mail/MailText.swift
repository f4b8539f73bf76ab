import PortvaktCore

/// Texts of mail by key (`mail.<key>` in the catalogs).
enum MailText: String, CatalogKeys {
    case wasItNotYouSignIn = "was_it_not_you_sign_in"
    case hello = "hello"
    case portvaktTheSignInOfThe = "portvakt_the_sign_in_of_the"
    case chooseAPasswordForThePeer = "choose_a_password_for_the_peer"
    case youAreInvitedToSignIn = "you_are_invited_to_sign_in"
    case theLinkWorksOnceFor24 = "the_link_works_once_for_24"
    case yourPasswordWasSetOrChanged = "your_password_was_set_or_changed"
    case thePasswordOfYourAccountIn = "the_password_of_your_account_in"
    case aNewPhoneCanUnlockYour = "a_new_phone_can_unlock_your"
    case aNewPhone = "a_new_phone"
    case phoneCanNowUnlockYourAccount = "phone_can_now_unlock_your_account"
    case anAdministratorRemovedYourDevices = "an_administrator_removed_your_devices"
    case anAdministrator = "an_administrator"
    case whoRemovedThePhonesThatCould = "who_removed_the_phones_that_could"
    case nextTimeSignInWithBankid = "next_time_sign_in_with_bankid"
    case yourCodeForThePeerMentor = "your_code_for_the_peer_mentor"
    case someoneSignedInWithBankidOr = "someone_signed_in_with_bankid_or"
    case enterItOnThePageWhere = "enter_it_on_the_page_where"
    case whoeverEntersTheCodeGetsYour = "whoever_enters_the_code_gets_your"
    case yourMembershipWasConnectedToA = "your_membership_was_connected_to_a"
    case theMembershipWithThisEmailAddress = "the_membership_with_this_email_address"
    case aNewPasskeyCanSignIn = "a_new_passkey_can_sign_in"
    case aNewPasskey = "a_new_passkey"
    case keyCanNowSignInTo = "key_can_now_sign_in_to"
    case youWereGivenAMembershipOr = "you_were_given_a_membership_or"
    case anOrganisation = "an_organisation"
    case peerMentor = "peer_mentor"
    case coordinator = "coordinator"
    case administrator = "administrator"
    case whoRegisteredYouAsAsIn = "who_registered_you_as_as_in"
    case doYouNotRecogniseThisContact = "do_you_not_recognise_this_contact"
    case thePhoneNamed = "the_phone_named"
    case anAdministratorOf = "an_administrator_of"
    case thePasskeyNamed = "the_passkey_named"
    case questionsContact = "questions_contact"

    static var catalog: TextCatalog { DomainCatalog.texts }
    static let namespace = "mail"

    var placeholders: Set<String> {
        switch self {
        case .wasItNotYouSignIn, .doYouNotRecogniseThisContact: ["account_url"]
        case .phoneCanNowUnlockYourAccount: ["phone"]
        case .whoRemovedThePhonesThatCould: ["who"]
        case .keyCanNowSignInTo: ["key"]
        case .whoRegisteredYouAsAsIn: ["role", "who"]
        case .thePhoneNamed: ["name"]
        case .anAdministratorOf: ["organisation"]
        case .thePasskeyNamed: ["name"]
        case .questionsContact: ["contact"]
        default: []
        }
    }
}
