import PortvaktCore

/// The subjects of the mail by key (`mail.<key>` in the catalogs); the bodies are ``MailTemplates``.
enum MailText: String, CatalogKeys {
    case chooseAPasswordForThePeer = "choose_a_password_for_the_peer"
    case yourPasswordWasSetOrChanged = "your_password_was_set_or_changed"
    case aNewPhoneCanUnlockYour = "a_new_phone_can_unlock_your"
    case anAdministratorRemovedYourDevices = "an_administrator_removed_your_devices"
    case yourCodeForThePeerMentor = "your_code_for_the_peer_mentor"
    case yourMembershipWasConnectedToA = "your_membership_was_connected_to_a"
    case aNewPasskeyCanSignIn = "a_new_passkey_can_sign_in"
    case youWereGivenAMembershipOr = "you_were_given_a_membership_or"

    static var catalog: TextCatalog { DomainCatalog.texts }
    static let namespace = "mail"
}
