import PortvaktCore

/// Texts of admin_words by key (`admin_words.<key>` in the catalogs).
enum AdminPhrase: String, CatalogKeys {
    case yes = "yes"
    case no = "no"
    case notSignedInYet = "not_signed_in_yet"
    case passkey = "passkey"
    case emailAndPassword = "email_and_password"
    case added = "added"
    case confirmed = "confirmed"
    case conflict = "conflict"
    case missing = "missing"
    case invalid = "invalid"
    case aViaSignInMatchedThis = "a_via_sign_in_matched_this"
    case theMemberSystemGaveTheMember = "the_member_system_gave_the_member"
    case aViaSignInWithThe = "a_via_sign_in_with_the"
    case anAdministrator = "an_administrator"
    case theNationalIdentityNumberFromThe = "the_national_identity_number_from_the"
    case theViaSignInConfirmedThe = "the_via_sign_in_confirmed_the"
    case theViaSignInGaveAnother = "the_via_sign_in_gave_another"
    case viaDidNotGiveTheNational = "via_did_not_give_the_national"
    case viaGaveANationalIdentityNumber = "via_gave_a_national_identity_number"
    case openWaitsForAnAdministrator = "open_waits_for_an_administrator"
    case resolvedTookTheNumberFromThe = "resolved_took_the_number_from_the"
    case resolvedKeptTheRecordsNumber = "resolved_kept_the_records_number"
    case done = "done"
    case nationalIdentityNumberToTheMember = "national_identity_number_to_the_member"
    case delivered = "delivered"
    case gaveUpAfterAttemptsAttempts = "gave_up_after_attempts_attempts"
    case beingSent = "being_sent"
    case retrying = "retrying"
    case waiting = "waiting"
    case theMemberSystemWasUnavailableAnswered = "the_member_system_was_unavailable_answered"
    case theMemberSystemRefusedTheUpdate = "the_member_system_refused_the_update"
    case theOrganisationHasNoMemberSystem = "the_organisation_has_no_member_system"
    case couldNotReachTheMemberSystem = "could_not_reach_the_member_system"
    case signedIn = "signed_in"
    case failedSignIn = "failed_sign_in"
    case mergedTwoAccounts = "merged_two_accounts"
    case invitedToPasswordSignIn = "invited_to_password_sign_in"
    case choseAPasswordFromAnInvitation = "chose_a_password_from_an_invitation"
    case viewedNationalIdentityNumbersInFull = "viewed_national_identity_numbers_in_full"
    case resolvedAConflictTookTheSign = "resolved_a_conflict_took_the_sign"
    case resolvedAConflictKeptTheRecords = "resolved_a_conflict_kept_the_records"
    case resolvedAConflict = "resolved_a_conflict"
    case aSignInWithAnotherNational = "a_sign_in_with_another_national"
    case signInNotLinkedMatchedBy = "sign_in_not_linked_matched_by"
    case nationalIdentityNumberAddedFromA = "national_identity_number_added_from_a"
    case nationalIdentityNumberConfirmedAtSign = "national_identity_number_confirmed_at_sign"
    case nationalIdentityNumberConflictAtSign = "national_identity_number_conflict_at_sign"
    case theSignInGaveNoNational = "the_sign_in_gave_no_national"
    case theSignInGaveAnInvalid = "the_sign_in_gave_an_invalid"
    case suspendedAMembership = "suspended_a_membership"
    case liftedASuspension = "lifted_a_suspension"
    case sentAnUpdateToTheMember = "sent_an_update_to_the_member"
    case exportedTheAuditTrail = "exported_the_audit_trail"
    case endedASignIn = "ended_a_sign_in"
    case submittedAnExpenseClaim = "submitted_an_expense_claim"
    case viewedContactDetails = "viewed_contact_details"
    case anAccountCannotBeMergedWith = "an_account_cannot_be_merged_with"
    case youCannotMergeYourOwnAccount = "you_cannot_merge_your_own_account"
    case bothAccountsMustBeMembersOf = "both_accounts_must_be_members_of"
    case oneOfTheAccountsIsAlso = "one_of_the_accounts_is_also"
    case oneOfTheAccountsIsDisabled = "one_of_the_accounts_is_disabled"
    case theMembershipIsSuspendedLiftThe = "the_membership_is_suspended_lift_the"
    case theChainIsBrokenAtEvent = "the_chain_is_broken_at_event"
    case theChainIsVerifiedUpTo = "the_chain_is_verified_up_to"
    case pagePageOfPages = "page_page_of_pages"
    case events = "events"
    case entries = "entries"
    case showing = "showing"

    static var catalog: TextCatalog { ServerCatalog.texts }
    static let namespace = "admin_words"

    var placeholders: Set<String> {
        switch self {
        case .aViaSignInMatchedThis, .aViaSignInWithThe, .theNationalIdentityNumberFromThe, .theViaSignInConfirmedThe, .theViaSignInGaveAnother, .viaDidNotGiveTheNational, .viaGaveANationalIdentityNumber: ["via"]
        case .gaveUpAfterAttemptsAttempts: ["attempts"]
        case .theMemberSystemWasUnavailableAnswered, .theMemberSystemRefusedTheUpdate: ["code"]
        case .theChainIsBrokenAtEvent: ["reason", "sequence"]
        case .theChainIsVerifiedUpTo: ["checked"]
        case .pagePageOfPages: ["page", "pages"]
        case .events, .entries: ["count"]
        case .showing: ["first", "last", "total"]
        default: []
        }
    }
}
