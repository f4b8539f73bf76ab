import PortvaktCore

/// Texts of portal_words by key (`portal_words.<key>` in the catalogs).
enum PortalPhrase: String, CatalogKeys {
    case passkey = "passkey"
    case fingerprintOnThePhone = "fingerprint_on_the_phone"
    case faceOnThePhone = "face_on_the_phone"
    case emailAndPassword = "email_and_password"
    case fingerprint = "fingerprint"
    case face = "face"
    case theApp = "the_app"
    case theCommandLinePortvakt = "the_command_line_portvakt"
    case browserMyAccount = "browser_my_account"
    case signedInWithBankid = "signed_in_with_bankid"
    case signedInWithVipps = "signed_in_with_vipps"
    case signedInWithAPasskey = "signed_in_with_a_passkey"
    case signedInWithEmailAndPassword = "signed_in_with_email_and_password"
    case unlockedTheAppWithFaceOr = "unlocked_the_app_with_face_or"
    case addedAPhoneForBiometricSign = "added_a_phone_for_biometric_sign"
    case confirmedAPhoneWithBankidOr = "confirmed_a_phone_with_bankid_or"
    case removedAPhone = "removed_a_phone"
    case failedUnlockWithThePhone = "failed_unlock_with_the_phone"
    case confirmedWithFaceOrFingerprint = "confirmed_with_face_or_fingerprint"
    case downloadedYourData = "downloaded_your_data"
    case addedAPasskey = "added_a_passkey"
    case removedAPasskey = "removed_a_passkey"
    case aPasskeyWasRefused = "a_passkey_was_refused"
    case aMemberSystemRegisteredYouAs = "a_member_system_registered_you_as"
    case aMemberSystemRegisteredYouAs2 = "a_member_system_registered_you_as_2"
    case aMemberSystemRegisteredYouAs3 = "a_member_system_registered_you_as_3"
    case confirmedWithPassword = "confirmed_with_password"
    case wrongPasswordWhenConfirming = "wrong_password_when_confirming"
    case notAMemberAnywhere = "not_a_member_anywhere"
    case theSignInIsRefusedThe = "the_sign_in_is_refused_the"
    case theMembershipRecordHasOnlyHer = "the_membership_record_has_only_her"
    case theFirstVippsOrBankidSign = "the_first_vipps_or_bankid_sign"
    case conflictTheMembershipRecordHoldsAnother = "conflict_the_membership_record_holds_another"
    case rolesInTwoOrganisations = "roles_in_two_organisations"
    case allMatchesTheSignInConfirms = "all_matches_the_sign_in_confirms"
    case administerName = "administer_name"
    case qrCodeForBankidScanIt = "qr_code_for_bankid_scan_it"

    static var catalog: TextCatalog { ServerCatalog.texts }
    static let namespace = "portal_words"

    var placeholders: Set<String> {
        switch self {
        case .administerName: ["name"]
        default: []
        }
    }
}
